import { Hl7Context, Hl7Field, Hl7Message, Hl7Segment, parseHl7DateTime, type AckCode } from '@medplum/core';

/**
 * Reading HL7v2 ORU^R01 result messages and writing their ACKs, on the @medplum/core HL7 parser. The reader only
 * checks structure; matching patients and orders is the service's business.
 */

/** The message cannot be processed at all: answered with AR. */
export class MalformedMessage extends Error {}

export interface OruObservation {
  /** Position of the OBX in the message, from 1. */
  sequence: number;
  valueType: string;
  code: string;
  codeSystem: string | null;
  display: string | null;
  value: string | null;
  numericValue: number | null;
  unit: string | null;
  referenceRange: string | null;
  abnormalFlag: string | null;
  resultStatus: string;
  observedAt: Date | null;
}

export interface OruOrder {
  /** OBR-2: the placer order number, our lab order id. */
  placerOrderNumber: string;
  observations: OruObservation[];
}

export interface OruMessage {
  controlId: string;
  /** PID-3: every identifier of the patient (each repetition's id). */
  patientIdentifiers: string[];
  orders: OruOrder[];
}

/** MLLP framing (VT ... FS CR) and stray whitespace around the message. */
// The control characters are the point: MLLP frames a message with VT (0x0b) and FS (0x1c).
// eslint-disable-next-line no-control-regex
const FRAMING = /^[\s\x0b]+|[\s\x1c]+$/g;
const HEADER = /^MSH[^\w\s][^\w\s]{4}/;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** HL7 DTM: YYYY[MM[DD[HH[MM[SS[.S[S[S[S]]]]]]]]][+/-ZZZZ]. */
const DTM = /^\d{4}(\d{2}(\d{2}(\d{2}(\d{2}(\d{2}(\.\d{1,4})?)?)?)?)?)?([+-]\d{4})?$/;
const CODED = new Set(['CE', 'CWE', 'CNE', 'CF']);

export function parseMessage(text: string): Hl7Message {
  const clean = text.replace(FRAMING, '');
  if (!HEADER.test(clean)) throw new MalformedMessage('Not an HL7v2 message: it must start with an MSH segment');
  try {
    return Hl7Message.parse(clean);
  } catch {
    throw new MalformedMessage('Not a readable HL7v2 message');
  }
}

/** The results of an ORU^R01 message: one patient (PID), one or more orders (OBR), each with its OBX. */
export function readOru(message: Hl7Message): OruMessage {
  const msh = message.header;
  const type = [msh.getComponent(9, 1), msh.getComponent(9, 2)].filter(Boolean).join('^');
  if (type !== 'ORU^R01') throw new MalformedMessage(`Message type ${type || '(MSH-9 empty)'} is not ORU^R01`);
  const controlId = msh.getComponent(10, 1).trim();
  if (!controlId) throw new MalformedMessage('MSH-10 (message control id) is required');

  let pid: Hl7Segment | undefined;
  let orderObservedAt: Date | null = null;
  const orders: OruOrder[] = [];
  let sequence = 0;
  for (const segment of message.segments.slice(1)) {
    if (segment.name === 'PID') {
      if (pid) throw new MalformedMessage('One patient per message: found a second PID segment');
      pid = segment;
    } else if (segment.name === 'OBR') {
      if (!pid) throw new MalformedMessage('OBR segment before the PID segment');
      orderObservedAt = dateTime(segment, 7, 'OBR-7');
      orders.push({ placerOrderNumber: text(segment.getComponent(2, 1), message.context) ?? '', observations: [] });
    } else if (segment.name === 'OBX') {
      const order = orders.at(-1);
      if (!order) throw new MalformedMessage('OBX segment before any OBR segment');
      order.observations.push(observation(segment, ++sequence, orderObservedAt, message.context));
    }
  }
  if (!pid) throw new MalformedMessage('PID segment is required');
  if (!orders.length) throw new MalformedMessage('OBR segment is required');
  const empty = orders.findIndex((o) => !o.observations.length);
  if (empty >= 0) throw new MalformedMessage(`OBR ${empty + 1} has no OBX segment`);
  const patientIdentifiers = (pid.getField(3)?.components ?? [])
    .map((repetition) => text(repetition[0], message.context))
    .filter((id): id is string => !!id);
  if (!patientIdentifiers.length) throw new MalformedMessage('PID-3 (patient identifier) is required');
  return { controlId, patientIdentifiers, orders };
}

function observation(obx: Hl7Segment, sequence: number, orderObservedAt: Date | null, ctx: Hl7Context): OruObservation {
  const where = `OBX ${sequence}`;
  const valueType = obx.getComponent(2, 1).trim().toUpperCase();
  const code = text(obx.getComponent(3, 1), ctx);
  if (!code) throw new MalformedMessage(`${where}: OBX-3 (observation code) is required`);
  const resultStatus = obx.getComponent(11, 1).trim().toUpperCase();
  if (!resultStatus) throw new MalformedMessage(`${where}: OBX-11 (result status) is required`);
  const { value, numericValue } = observedValue(obx.getField(5), valueType, ctx, where);
  return {
    sequence,
    valueType: valueType || 'ST',
    code,
    codeSystem: text(obx.getComponent(3, 3), ctx),
    display: text(obx.getComponent(3, 2), ctx),
    value,
    numericValue,
    unit: text(obx.getComponent(6, 1), ctx),
    referenceRange: text(obx.getComponent(7, 1), ctx),
    abnormalFlag: text(obx.getComponent(8, 1), ctx)?.toUpperCase() ?? null,
    resultStatus,
    observedAt: dateTime(obx, 14, `${where}: OBX-14`) ?? orderObservedAt,
  };
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
  const lines = repetitions.map((r) => unescape(r[0] ?? '', ctx));
  return { value: lines.join('\n').trim() || null, numericValue: null };
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

/** The standard escape sequences (\F\ \S\ \T\ \R\ \E\ and \.br\) back to what they stand for. */
function unescape(value: string, ctx: Hl7Context): string {
  const e = ctx.escapeCharacter;
  if (!value.includes(e)) return value;
  const map: Record<string, string> = {
    F: ctx.fieldSeparator,
    S: ctx.componentSeparator,
    T: ctx.subcomponentSeparator,
    R: ctx.repetitionSeparator,
    E: e,
    '.br': '\n',
  };
  const q = e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return value.replace(new RegExp(`${q}(F|S|T|R|E|\\.br)${q}`, 'g'), (_, k: string) => map[k]);
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

/**
 * The ACK (MSH + MSA) for a message, in its own delimiters; for text that could not be parsed, an ACK with default
 * delimiters and no control id. MSA-3 carries the reason of an AE or AR.
 */
export function acknowledgment(message: Hl7Message | null, code: AckCode, reason: string | null): string {
  const source = message ?? new Hl7Message([new Hl7Segment(['MSH', new Hl7Context().getMsh2()])]);
  const ack = source.buildAck({ ackCode: code });
  // The ACK's segments are written in the source's delimiters, but the ACK message itself carries default ones.
  const ctx = source.context;
  if (reason) {
    ack.getSegment('MSA')!.setField(3, new Hl7Field([[escape(reason.slice(0, MSA_TEXT_MAX), ctx)]], ctx));
  }
  return ack.toString();
}
