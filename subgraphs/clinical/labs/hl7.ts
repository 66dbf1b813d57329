import { createHash } from 'node:crypto';
import { Hl7Context, Hl7Field, Hl7Message, Hl7Segment, parseHl7DateTime, type AckCode } from '@medplum/core';

/**
 * Reading HL7v2 ORU^R01 result messages and writing their ACKs, on the @medplum/core HL7 parser. The reader only
 * checks structure; matching patients and orders is the service's business. What real laboratories send is read as
 * they send it (docs/hl7.md): HL7 2.3 to 2.5.1, MLLP framing, CR, LF or CRLF between segments, segments other than
 * PID, OBR, OBX and NTE ignored (ORC, PV1, SPM, SFT, Z-segments, ...).
 */

/** The message cannot be processed at all: answered with AR. */
export class MalformedMessage extends Error {}

/** An embedded document (an OBX of value type ED): a PDF report, most often. */
export interface OruDocument {
  contentType: string;
  data: Buffer;
}

export interface OruObservation {
  /** Position of the OBX in the message, from 1 (an OBR whose results are only in NTE counts as one). */
  sequence: number;
  /** OBX-4: the observation sub-id, grouping the OBX of one isolate, one specimen, ... */
  subId: string | null;
  valueType: string;
  code: string;
  codeSystem: string | null;
  display: string | null;
  /** OBX-3.4 and OBX-3.6 when OBX-3 gives an alternate code besides the one above. */
  alternateCode: string | null;
  alternateCodeSystem: string | null;
  value: string | null;
  numericValue: number | null;
  unit: string | null;
  referenceRange: string | null;
  abnormalFlag: string | null;
  resultStatus: string;
  observedAt: Date | null;
  /** The NTE segments after the OBX, one line each. */
  comment: string | null;
  document: OruDocument | null;
}

export interface OruOrder {
  /** Position of the OBR in the message, from 1. */
  index: number;
  /** OBR-2: the placer order number, our lab order id. */
  placerOrderNumber: string;
  /** The NTE segments after the OBR (before its first OBX). */
  comment: string | null;
  observations: OruObservation[];
}

export interface OruMessage {
  controlId: string;
  /** MSH-3 and MSH-4 as sent (all their components): with MSH-10, what identifies a message of a sender. */
  sendingApplication: string;
  sendingFacility: string;
  /** MSH-12. */
  version: string;
  /** SHA-256 of the message without its framing and MSH-7: equal for a message delivered again. */
  contentHash: string;
  /** PID-3: every identifier of the patient (each repetition's id). */
  patientIdentifiers: string[];
  orders: OruOrder[];
}

/** MLLP framing (VT ... FS CR) and stray whitespace around the message. */
// The control characters are the point: MLLP frames a message with VT (0x0b) and FS (0x1c).
// eslint-disable-next-line no-control-regex
const FRAMING = /^[\s\x0b]+|[\s\x1c]+$/g;
const HEADER = /^MSH[^\w\s][^\w\s]{4}/;
const BATCH = /^(FHS|BHS)[^\w\s]/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** HL7 DTM: YYYY[MM[DD[HH[MM[SS[.S[S[S[S]]]]]]]]][+/-ZZZZ]. */
const DTM = /^\d{4}(\d{2}(\d{2}(\d{2}(\d{2}(\d{2}(\.\d{1,4})?)?)?)?)?)?([+-]\d{4})?$/;
const CODED = new Set(['CE', 'CWE', 'CNE', 'CF']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const HEX = /^([0-9A-Fa-f]{2})+$/;
const MIME = /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/;

export const BATCH_REFUSED = 'Batches (FHS/BHS) are not accepted: send each ORU^R01 message on its own, as MLLP does';

export function parseMessage(text: string): Hl7Message {
  const clean = text.replace(FRAMING, '');
  if (BATCH.test(clean)) throw new MalformedMessage(BATCH_REFUSED);
  if (!HEADER.test(clean)) throw new MalformedMessage('Not an HL7v2 message: it must start with an MSH segment');
  try {
    return Hl7Message.parse(clean);
  } catch {
    throw new MalformedMessage('Not a readable HL7v2 message');
  }
}

/** The results of an ORU^R01 message: one patient (PID), one or more orders (OBR), each with its OBX and NTE. */
export function readOru(message: Hl7Message): OruMessage {
  const msh = message.header;
  const ctx = message.context;
  const type = [msh.getComponent(9, 1), msh.getComponent(9, 2)].filter(Boolean).join('^');
  if (type !== 'ORU^R01') throw new MalformedMessage(`Message type ${type || '(MSH-9 empty)'} is not ORU^R01`);
  const controlId = msh.getComponent(10, 1).trim();
  if (!controlId) throw new MalformedMessage('MSH-10 (message control id) is required');

  let pid: Hl7Segment | undefined;
  let obr: Hl7Segment | undefined;
  let orderObservedAt: Date | null = null;
  const orders: OruOrder[] = [];
  let sequence = 0;
  /** Where an NTE belongs: the last OBX, else the last OBR; NTE after MSH or PID are not kept. */
  let notes: { lines: string[]; keep: (text: string | null) => void } | null = null;

  const closeOrder = () => {
    const order = orders.at(-1);
    if (!order || order.observations.length || !obr) return;
    // Results given only as NTE text under the OBR: one text result, coded as the OBR (OBR-4).
    if (!order.comment) throw new MalformedMessage(`OBR ${order.index} has no OBX segment (and no NTE)`);
    const { code, codeSystem, display, alternateCode, alternateCodeSystem } = codedAs(obr, 4, ctx);
    if (!code) throw new MalformedMessage(`OBR ${order.index}: OBR-4 (universal service identifier) is required`);
    order.observations.push({
      sequence: ++sequence,
      subId: null,
      valueType: 'TX',
      code,
      codeSystem,
      display,
      alternateCode,
      alternateCodeSystem,
      value: order.comment,
      numericValue: null,
      unit: null,
      referenceRange: null,
      abnormalFlag: null,
      resultStatus: orderStatus(obr) ?? 'F',
      observedAt: orderObservedAt,
      comment: null,
      document: null,
    });
    order.comment = null;
  };

  for (const segment of message.segments.slice(1)) {
    switch (segment.name) {
      case 'MSH':
        throw new MalformedMessage('One message per request: found a second MSH segment');
      case 'FHS':
      case 'BHS':
      case 'BTS':
      case 'FTS':
        throw new MalformedMessage(BATCH_REFUSED);
      case 'PID':
        if (pid) throw new MalformedMessage('One patient per message: found a second PID segment');
        pid = segment;
        notes = null;
        break;
      case 'OBR': {
        if (!pid) throw new MalformedMessage('OBR segment before the PID segment');
        closeOrder();
        obr = segment;
        orderObservedAt = dateTime(segment, 7, 'OBR-7');
        const order: OruOrder = {
          index: orders.length + 1,
          placerOrderNumber: text(segment.getComponent(2, 1), ctx) ?? '',
          comment: null,
          observations: [],
        };
        orders.push(order);
        notes = { lines: [], keep: (t) => (order.comment = t) };
        break;
      }
      case 'OBX': {
        const order = orders.at(-1);
        if (!order || !obr) throw new MalformedMessage('OBX segment before any OBR segment');
        const obs = observation(segment, obr, ++sequence, orderObservedAt, ctx);
        order.observations.push(obs);
        notes = { lines: [], keep: (t) => (obs.comment = t) };
        break;
      }
      case 'NTE':
        if (notes) {
          notes.lines.push(noteText(segment, ctx));
          notes.keep(lines(notes.lines));
        }
        break;
      default:
      // ORC, PV1, PV2, SPM, SFT, TQ1, CTI, Z-segments, ...: not what results are made of.
    }
  }
  if (!pid) throw new MalformedMessage('PID segment is required');
  if (!orders.length) throw new MalformedMessage('OBR segment is required');
  closeOrder();
  const patientIdentifiers = (pid.getField(3)?.components ?? [])
    .map((repetition) => text(repetition[0], ctx))
    .filter((id): id is string => !!id);
  if (!patientIdentifiers.length) throw new MalformedMessage('PID-3 (patient identifier) is required');
  return {
    controlId,
    sendingApplication: msh.getField(3)?.toString().trim() ?? '',
    sendingFacility: msh.getField(4)?.toString().trim() ?? '',
    version: msh.getComponent(12, 1).trim(),
    contentHash: contentHash(message),
    patientIdentifiers,
    orders,
  };
}

/** SHA-256 over the segments as parsed (separators and framing normalised), MSH-7 left out: senders restamp it. */
function contentHash(message: Hl7Message): string {
  const hash = createHash('sha256');
  message.segments.forEach((segment, i) => {
    let line = segment.toString();
    if (i === 0) {
      const fields = line.split(message.context.fieldSeparator);
      fields[6] = '';
      line = fields.join(message.context.fieldSeparator);
    }
    hash.update(line.trimEnd()).update('\r');
  });
  return hash.digest('hex');
}

function observation(obx: Hl7Segment, obr: Hl7Segment, sequence: number, orderObservedAt: Date | null, ctx: Hl7Context): OruObservation {
  const where = `OBX ${sequence}`;
  const valueType = obx.getComponent(2, 1).trim().toUpperCase();
  // OBX-3, else (an OBX of report text without a code of its own) the order's code, OBR-4.
  let coded = codedAs(obx, 3, ctx);
  if (!coded.code) coded = codedAs(obr, 4, ctx);
  if (!coded.code) throw new MalformedMessage(`${where}: OBX-3 (observation code) is required`);
  const resultStatus = obx.getComponent(11, 1).trim().toUpperCase() || orderStatus(obr);
  if (!resultStatus) throw new MalformedMessage(`${where}: OBX-11 (result status) is required, or OBR-25 for the order`);
  const document = valueType === 'ED' ? encapsulated(obx.getField(5), ctx, where) : null;
  const { value, numericValue } = document
    ? { value: `${document.contentType} document, ${document.data.length} bytes`, numericValue: null }
    : observedValue(obx.getField(5), valueType, ctx, where);
  return {
    sequence,
    subId: text(obx.getComponent(4, 1), ctx),
    valueType: valueType || 'ST',
    ...coded,
    code: coded.code,
    value,
    numericValue,
    unit: text(obx.getComponent(6, 1), ctx),
    referenceRange: text(obx.getComponent(7, 1), ctx),
    abnormalFlag: text(obx.getComponent(8, 1), ctx)?.toUpperCase() ?? null,
    resultStatus,
    observedAt: dateTime(obx, 14, `${where}: OBX-14`) ?? orderObservedAt,
    comment: null,
    document,
  };
}

/** A CE/CWE field: its code, else (given only in components 4-6) its alternate code. */
function codedAs(segment: Hl7Segment, index: number, ctx: Hl7Context) {
  const c = (n: number) => text(segment.getComponent(index, n), ctx);
  const [code, display, system, altCode, altDisplay, altSystem] = [c(1), c(2), c(3), c(4), c(5), c(6)];
  if (!code && altCode) {
    return { code: altCode, display: altDisplay ?? display, codeSystem: altSystem, alternateCode: null, alternateCodeSystem: null };
  }
  return {
    code,
    display: display ?? altDisplay,
    codeSystem: system,
    alternateCode: altCode,
    alternateCodeSystem: altCode ? altSystem : null,
  };
}

/** OBR-25: the order's result status, standing for OBX-11 when a sender leaves it empty. */
function orderStatus(obr: Hl7Segment): string | null {
  return obr.getComponent(25, 1).trim().toUpperCase() || null;
}

/** NTE-3 (FT, repeating): each repetition a line, escapes decoded. */
function noteText(nte: Hl7Segment, ctx: Hl7Context): string {
  return (nte.getField(3)?.components ?? []).map((r) => unescape(r.join(ctx.componentSeparator), ctx)).join('\n');
}

/** Lines without trailing spaces and without blank lines around them; null when nothing is left. */
function lines(parts: string[]): string | null {
  const all = parts
    .join('\n')
    .split('\n')
    .map((l) => l.trimEnd());
  while (all.length && !all[0]) all.shift();
  while (all.length && !all.at(-1)) all.pop();
  return all.length ? all.join('\n') : null;
}

/** OBX-5 as text, and as a number when it is one (NM, or SN without a comparator or range). */
function observedValue(field: Hl7Field | undefined, valueType: string, ctx: Hl7Context, where: string) {
  const repetitions = field?.components ?? [];
  const first = repetitions[0] ?? [];
  if (valueType === 'NM') {
    const raw = (first[0] ?? '').trim();
    if (!raw) return { value: null, numericValue: null };
    if (!NUMBER.test(raw)) throw new MalformedMessage(`${where}: OBX-5 must be a number for value type NM`);
    return { value: raw, numericValue: Number(raw) };
  }
  if (valueType === 'SN') {
    const [comparator = '', n1 = '', separator = '', n2 = ''] = first.map((c) => c.trim());
    const value = [comparator, n1, separator, n2].join('') || null;
    const plain = (comparator === '' || comparator === '=') && !separator && !n2 && NUMBER.test(n1);
    return { value, numericValue: plain ? Number(n1) : null };
  }
  if (CODED.has(valueType)) {
    const values = repetitions.map((r) => text(r[1], ctx) ?? text(r[0], ctx)).filter(Boolean);
    return { value: values.join('; ') || null, numericValue: null };
  }
  // Text (ST, TX, FT, and types we do not interpret): each repetition a line, components kept as sent.
  const all = repetitions.map((r) => unescape(r.join(ctx.componentSeparator), ctx));
  return { value: lines(all), numericValue: null };
}

/**
 * OBX-5 of type ED: source ^ type of data ^ subtype ^ encoding ^ data. Base64 (also when the encoding is left empty
 * and the data is Base64), Hex, or A (text). Line breaks a sender put inside the data (\X0D\\X0A\, CR LF) are dropped.
 */
function encapsulated(field: Hl7Field | undefined, ctx: Hl7Context, where: string): OruDocument {
  const [, type = '', subtype = '', encoding = '', raw = ''] = field?.components[0] ?? [];
  const e = ctx.escapeCharacter;
  const compact = raw.split(`${e}X0D${e}`).join('').split(`${e}X0A${e}`).join('').replace(/\s+/g, '');
  if (!compact) throw new MalformedMessage(`${where}: OBX-5 of type ED has no data (OBX-5.5)`);
  const enc = encoding.trim().toUpperCase();
  let data: Buffer;
  if (enc === 'A') data = Buffer.from(unescape(raw, ctx), 'utf8');
  else if (enc === 'HEX') {
    if (!HEX.test(compact)) throw new MalformedMessage(`${where}: OBX-5 of type ED is not valid hexadecimal`);
    data = Buffer.from(compact, 'hex');
  } else if (enc === 'BASE64' || enc === 'B64' || enc === '') {
    if (!BASE64.test(compact)) throw new MalformedMessage(`${where}: OBX-5 of type ED is not valid Base64`);
    data = Buffer.from(compact, 'base64');
  } else throw new MalformedMessage(`${where}: OBX-5.4 encoding ${encoding} is not one of Base64, Hex or A`);
  if (!data.length) throw new MalformedMessage(`${where}: OBX-5 of type ED has no data (OBX-5.5)`);
  return { contentType: mediaType(type, subtype, data), data };
}

/** The media type of an ED value from its type and subtype (HL7 tables 0191 and 0291, or MIME), else its content. */
function mediaType(type: string, subtype: string, data: Buffer): string {
  const t = type.trim().toLowerCase();
  const s = subtype.trim().toLowerCase();
  if (MIME.test(t)) return t;
  if (MIME.test(`${t}/${s}`) && ['application', 'text', 'image', 'audio', 'video'].includes(t)) return `${t}/${s}`;
  if (s === 'pdf' || t === 'pdf' || data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (s === 'rtf') return 'application/rtf';
  if (s === 'html') return 'text/html';
  if (s === 'xml') return 'application/xml';
  if (s === 'jpeg') return 'image/jpeg';
  if (s === 'png') return 'image/png';
  if (t === 'text' || s === 'plain') return 'text/plain';
  return 'application/octet-stream';
}

function dateTime(segment: Hl7Segment, index: number, name: string): Date | null {
  const raw = segment.getComponent(index, 1).trim();
  if (!raw) return null;
  if (!DTM.test(raw)) throw new MalformedMessage(`${name} is not an HL7 date/time (YYYYMMDDHHMMSS)`);
  const date = new Date(parseHl7DateTime(raw)!);
  if (Number.isNaN(date.getTime())) throw new MalformedMessage(`${name} is not a valid date/time`);
  return date;
}

function text(value: string | undefined, ctx: Hl7Context): string | null {
  const out = unescape(value ?? '', ctx).trim();
  return out || null;
}

/**
 * The escape sequences of HL7 v2 (chapter 2.7) back to what they stand for: the delimiters (\F\ \S\ \T\ \R\ \E\),
 * line breaks (\.br\, \.sp\ and \.sp n\), hexadecimal data (\Xhh...\, read as UTF-8); highlighting (\H\ \N\),
 * other formatting commands (\.in\ \.ti\ \.sk\ \.ce\ \.fi\ \.nf\) and character set escapes (\C..\ \M..\ \Z..\) are
 * dropped. An escape character that starts no sequence is kept as it is.
 */
export function unescape(value: string, ctx: Hl7Context): string {
  const e = ctx.escapeCharacter;
  if (!value.includes(e)) return value;
  const q = e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const delimiters: Record<string, string> = {
    F: ctx.fieldSeparator,
    S: ctx.componentSeparator,
    T: ctx.subcomponentSeparator,
    R: ctx.repetitionSeparator,
    E: e,
  };
  return value.replace(new RegExp(`${q}([^${q}]*)${q}`, 'g'), (whole, seq: string) => {
    if (seq in delimiters) return delimiters[seq];
    if (seq === '.br') return '\n';
    const sp = /^\.sp\s*(\d*)$/.exec(seq);
    if (sp) return '\n'.repeat(Math.max(1, Number(sp[1] || 1)));
    if (/^X([0-9A-Fa-f]{2})+$/.test(seq)) return Buffer.from(seq.slice(1), 'hex').toString('utf8');
    if (seq === 'H' || seq === 'N' || /^\.(in|ti|sk|ce|fi|nf)\b/.test(seq) || /^[CMZ][0-9A-Za-z]*$/.test(seq)) return '';
    return whole;
  });
}

function escape(value: string, ctx: Hl7Context): string {
  const map = new Map([
    [ctx.escapeCharacter, 'E'],
    [ctx.fieldSeparator, 'F'],
    [ctx.componentSeparator, 'S'],
    [ctx.subcomponentSeparator, 'T'],
    [ctx.repetitionSeparator, 'R'],
  ]);
  return [...value.replace(/[\r\n]+/g, ' ')]
    .map((c) => (map.has(c) ? `${ctx.escapeCharacter}${map.get(c)}${ctx.escapeCharacter}` : c))
    .join('');
}

/** MSA-3 (text message) holds 80 characters. */
const MSA_TEXT_MAX = 80;

/** HL7 table 0357 (message error condition codes) used in ERR-3. */
export const HL7_ERROR = {
  '101': 'Required field missing',
  '204': 'Unknown key identifier',
  '205': 'Duplicate key identifier',
  '207': 'Application internal error',
} as const;

/** One ERR segment of an ACK: where (segment, its position among its kind, field), why, and the text. */
export interface AckError {
  segment: string;
  position: number;
  field: number;
  code: keyof typeof HL7_ERROR;
  text: string;
}

/**
 * The ACK (MSH + MSA, and an ERR segment per problem) for a message, in its own delimiters; for text that could not
 * be parsed, an ACK with default delimiters and no control id. MSA-3 carries the reason of an AE or AR (80
 * characters at most); ERR (HL7 2.5 layout: ERR-2 location, ERR-3 code of table 0357, ERR-4 severity E, ERR-8 the
 * whole text) names each part of the message that was not stored.
 */
export function acknowledgment(message: Hl7Message | null, code: AckCode, reason: string | null, problems: AckError[] = []): string {
  const source = message ?? new Hl7Message([new Hl7Segment(['MSH', new Hl7Context().getMsh2()])]);
  const ack = source.buildAck({ ackCode: code });
  // The ACK's segments are written in the source's delimiters, but the ACK message itself carries default ones.
  const ctx = source.context;
  if (reason) {
    ack.getSegment('MSA')!.setField(3, new Hl7Field([[escape(reason.slice(0, MSA_TEXT_MAX), ctx)]], ctx));
  }
  const c = ctx.componentSeparator;
  for (const p of problems) {
    ack.segments.push(
      new Hl7Segment(
        [
          'ERR',
          '',
          [p.segment, p.position, p.field].join(c),
          [p.code, HL7_ERROR[p.code], 'HL70357'].join(c),
          'E',
          '',
          '',
          '',
          escape(p.text, ctx),
        ],
        ctx,
      ),
    );
  }
  return ack.toString();
}
