import { acknowledgment, MalformedMessage, parseMessage, readOru } from './hl7';

const MSH = 'MSH|^~\\&|LIS|CENTRAL LAB|CCP|CLINIC|20261122083000||ORU^R01^ORU_R01|MSG0001|P|2.5.1';
const PID = 'PID|1||MRN-42^^^CLINIC^MR~NAT-777^^^KE^NI||Odhiambo^Amina||19880615|F';
const OBR = 'OBR|1|ORDER-1|LAB-778|58410-2^CBC panel^LN|||20261122080000+0300';
const HGB = 'OBX|1|NM|718-7^Hemoglobin^LN||13.2|g/dL|12.0-15.5|n|||F|||20261122081500+0300';

/** Segments joined by CR, as a laboratory system sends them. */
const message = (...segments: string[]) => segments.join('\r');
const read = (...segments: string[]) => readOru(parseMessage(message(...segments)));

/** The MalformedMessage reason a message is refused with. */
function refusal(text: string): string {
  try {
    readOru(parseMessage(text));
  } catch (err) {
    expect(err).toBeInstanceOf(MalformedMessage);
    return (err as Error).message;
  }
  throw new Error('expected the message to be refused');
}

describe('parseMessage', () => {
  it('strips MLLP framing and surrounding whitespace', () => {
    const parsed = parseMessage(`\x0b${message(MSH, PID, OBR, HGB)}\x1c\r\n`);
    expect(parsed.segments.map((s) => s.name)).toEqual(['MSH', 'PID', 'OBR', 'OBX']);
  });

  it('accepts LF between segments as well as CR', () => {
    expect(read(MSH, PID, OBR, HGB).orders[0].observations).toHaveLength(1);
    expect(readOru(parseMessage([MSH, PID, OBR, HGB].join('\n'))).orders[0].observations).toHaveLength(1);
  });

  it.each([
    ['plain text', 'hello, this is not HL7'],
    ['an empty string', ''],
    ['JSON', '{"message":"MSH|^~\\\\&|"}'],
    ['an MSH without its encoding characters', 'MSH|'],
    ['a segment other than MSH first', message(PID, MSH)],
  ])('refuses %s: it must start with an MSH segment', (_name, text) => {
    expect(() => parseMessage(text)).toThrow(MalformedMessage);
    expect(() => parseMessage(text)).toThrow(/must start with an MSH segment/);
  });
});

describe('readOru', () => {
  it('reads the control id, every patient identifier and each order with its observations', () => {
    const oru = read(MSH, PID, OBR, HGB);
    expect(oru).toEqual({
      controlId: 'MSG0001',
      sendingApplication: 'LIS',
      sendingFacility: 'CENTRAL LAB',
      version: '2.5.1',
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      patientIdentifiers: ['MRN-42', 'NAT-777'],
      orders: [
        {
          index: 1,
          placerOrderNumber: 'ORDER-1',
          comment: null,
          observations: [
            {
              sequence: 1,
              subId: null,
              alternateCode: null,
              alternateCodeSystem: null,
              comment: null,
              document: null,
              valueType: 'NM',
              code: '718-7',
              codeSystem: 'LN',
              display: 'Hemoglobin',
              value: '13.2',
              numericValue: 13.2,
              unit: 'g/dL',
              referenceRange: '12.0-15.5',
              abnormalFlag: 'N',
              resultStatus: 'F',
              // The offset in the message is honoured: 08:15 at +03:00.
              observedAt: new Date('2026-11-22T05:15:00.000Z'),
            },
          ],
        },
      ],
    });
  });

  it('numbers observations through the whole message and falls back to the order time (OBR-7) without OBX-14', () => {
    const oru = read(
      MSH,
      PID,
      OBR,
      HGB,
      'OBX|2|NM|2823-3^Potassium^LN||6.8|mmol/L|3.5-5.1|H|||F',
      'OBR|2|ORDER-2||24323-8^CMP^LN|||20261122090000',
      'OBX|1|NM|2345-7^Glucose^LN||5.4|mmol/L|||||C',
    );
    expect(oru.orders.map((o) => o.placerOrderNumber)).toEqual(['ORDER-1', 'ORDER-2']);
    const [first, second] = oru.orders;
    expect(first.observations.map((o) => [o.sequence, o.code, o.observedAt?.toISOString()])).toEqual([
      [1, '718-7', '2026-11-22T05:15:00.000Z'],
      [2, '2823-3', '2026-11-22T05:00:00.000Z'],
    ]);
    // A time without an offset is read as UTC; each OBR sets the fallback for its own observations.
    expect(second.observations.map((o) => [o.sequence, o.resultStatus, o.observedAt?.toISOString()])).toEqual([
      [3, 'C', '2026-11-22T09:00:00.000Z'],
    ]);
    expect(second.observations[0]).toMatchObject({ referenceRange: null, abnormalFlag: null });
  });

  it('reads each value type: NM, SN, coded values, and text with its escapes and repetitions', () => {
    const [order] = read(
      MSH,
      PID,
      OBR,
      'OBX|1|NM|1||  ||||||F',
      'OBX|2|SN|2||<^5||||||F',
      'OBX|3|SN|3||^7.25||||||F',
      'OBX|4|SN|4||^1^:^128||||||F',
      'OBX|5|CWE|5||POS^Positive^L~NEG^^L||||||P',
      'OBX|6|CE|6||R-123||||||F',
      'OBX|7|FT|7||Line one\\.br\\Fasting\\F\\yes \\S\\ \\T\\ \\R\\ \\E\\~second part||||||F',
      'OBX|8||8||free text||||||F',
      'OBX|9|ST|9||   ||||||F',
    ).orders;
    expect(order.observations.map((o) => [o.valueType, o.value, o.numericValue])).toEqual([
      ['NM', null, null],
      ['SN', '<5', null],
      ['SN', '7.25', 7.25],
      ['SN', '1:128', null],
      ['CWE', 'Positive; NEG', null],
      ['CE', 'R-123', null],
      ['FT', 'Line one\nFasting|yes ^ & ~ \\\nsecond part', null],
      // No value type: read as text.
      ['ST', 'free text', null],
      ['ST', null, null],
    ]);
  });

  it('reads a message in its own delimiters', () => {
    const oru = readOru(
      parseMessage(
        message(
          'MSH#@*!%#LIS#LAB#CCP#CLINIC#20261122083000##ORU@R01#MSG-ALT#P#2.5.1',
          'PID#1##MRN-9@@@CLINIC@MR*MRN-10',
          'OBR#1#ORDER-9',
          'OBX#1#NM#718-7@Hemoglobin@LN##11.0#g/dL#####F',
        ),
      ),
    );
    expect(oru).toMatchObject({ controlId: 'MSG-ALT', patientIdentifiers: ['MRN-9', 'MRN-10'] });
    expect(oru.orders[0].observations[0]).toMatchObject({ code: '718-7', display: 'Hemoglobin', numericValue: 11 });
  });

  it.each([
    ['another message type', [MSH.replace('ORU^R01^ORU_R01', 'ADT^A01'), PID, OBR, HGB], /Message type ADT\^A01 is not ORU\^R01/],
    ['an empty message type', [MSH.replace('ORU^R01^ORU_R01', ''), PID, OBR, HGB], /MSH-9 empty/],
    ['no control id', [MSH.replace('MSG0001', ''), PID, OBR, HGB], /MSH-10/],
    ['no PID', [MSH, 'ORC|RE|ORDER-1'], /PID segment is required/],
    ['two PID segments', [MSH, PID, PID, OBR, HGB], /second PID/],
    ['an OBR before the PID', [MSH, OBR, PID, HGB], /OBR segment before the PID/],
    ['an OBX before any OBR', [MSH, PID, HGB, OBR], /OBX segment before any OBR/],
    ['no OBR', [MSH, PID], /OBR segment is required/],
    ['an OBR without results', [MSH, PID, OBR, HGB, 'OBR|2|ORDER-2'], /OBR 2 has no OBX/],
    ['no patient identifier', [MSH, 'PID|1||||Odhiambo^Amina', OBR, HGB], /PID-3/],
    ['an OBX without a code (nor OBR-4)', [MSH, PID, 'OBR|1|ORDER-1', 'OBX|1|NM|||13.2||||||F'], /OBX 1: OBX-3/],
    ['an OBX without a result status (nor OBR-25)', [MSH, PID, OBR, 'OBX|1|NM|718-7||13.2'], /OBX 1: OBX-11/],
    ['a batch', ['FHS|^~\\&|LAB', 'BHS|^~\\&|LAB', MSH, PID, OBR, HGB, 'BTS|1', 'FTS|1'], /Batches \(FHS\/BHS\) are not accepted/],
    ['a batch trailer after the message', [MSH, PID, OBR, HGB, 'BTS|1'], /Batches/],
    ['two messages in one', [MSH, PID, OBR, HGB, MSH, PID, OBR, HGB], /second MSH/],
    ['an OBR with neither OBX nor NTE', [MSH, PID, OBR], /OBR 1 has no OBX segment \(and no NTE\)/],
    ['an ED value without data', [MSH, PID, OBR, 'OBX|1|ED|PDF^Report||^application^pdf^Base64^||||||F'], /OBX 1: .*ED has no data/],
    ['an ED value that is not Base64', [MSH, PID, OBR, 'OBX|1|ED|PDF^Report||^AP^PDF^Base64^not base64!||||||F'], /not valid Base64/],
    ['an ED value in an unknown encoding', [MSH, PID, OBR, 'OBX|1|ED|PDF^Report||^AP^PDF^UUE^abc||||||F'], /encoding UUE/],
    ['a non-numeric NM value', [MSH, PID, OBR, 'OBX|1|NM|718-7||high||||||F'], /OBX 1: OBX-5 must be a number/],
    ['a malformed OBX-14', [MSH, PID, OBR, 'OBX|1|NM|718-7||1||||||F|||22/11/2026'], /OBX 1: OBX-14 is not an HL7 date\/time/],
    ['a malformed OBR-7', [MSH, PID, 'OBR|1|ORDER-1||x|||2026-11-22', HGB], /OBR-7 is not an HL7 date\/time/],
  ])('refuses %s', (_name, segments, reason) => {
    expect(refusal(message(...segments))).toMatch(reason);
  });
});

describe('what real senders send', () => {
  it('takes the code given only in OBX-3.4 to 3.6, keeps an alternate code, and falls back to OBR-4', () => {
    const [order] = read(
      MSH,
      PID,
      'OBR|1|ORDER-1||4050097^Surg Path Final Report^^4050097^Surg Path Final Report',
      'OBX|1|NM|^^^6690-2^Wbc^LN||7.0|/nl|||||F',
      'OBX|2|NM|wbc^Wbc^Local^6690-2^Wbc^LN||7.0|/nl|||||F',
      'OBX|3|TX|||report line||||||F',
    ).orders;
    expect(order.observations.map((o) => [o.code, o.codeSystem, o.display, o.alternateCode, o.alternateCodeSystem])).toEqual([
      ['6690-2', 'LN', 'Wbc', null, null],
      ['wbc', 'Local', 'Wbc', '6690-2', 'LN'],
      ['4050097', null, 'Surg Path Final Report', '4050097', null],
    ]);
  });

  it('keeps NTE with the OBX or OBR they follow, reads results given only as NTE, and OBX-4', () => {
    const oru = read(
      MSH,
      'NTE|1||about the message',
      PID,
      'NTE|1||about the patient',
      'OBR|1|ORDER-1||LAB6460^Gene Bone Marrow|||20150323150000||||||||||||||||||F',
      'NTE|1|L|Order note \\.br\\second line ',
      'OBX|1|TX|LAB6460^Gene Bone Marrow|2',
      'NTE|1||Physician: SHELDON A PHYSICIAN, MD',
      'NTE|2',
      'NTE|3||  NPI: 1881654887~continued',
      'ZPS|1|BN|LABCORP HOLDINGS',
      'OBR|2|ORDER-2||CTG^Cytogenetics|||20150323150000||||||||||||||||||P',
      'NTE|1||KARYOTYPE:      46,XX[20]',
      'NTE|2||',
    );
    const [first, second] = oru.orders;
    expect(first.comment).toBe('Order note\nsecond line');
    expect(first.observations[0]).toMatchObject({
      sequence: 1,
      subId: '2',
      value: null,
      resultStatus: 'F',
      comment: 'Physician: SHELDON A PHYSICIAN, MD\n\n  NPI: 1881654887\ncontinued',
    });
    // No OBX: the NTE text is the result, coded as the OBR, with its status (OBR-25).
    expect(second.comment).toBeNull();
    expect(second.observations).toEqual([
      expect.objectContaining({
        sequence: 2,
        valueType: 'TX',
        code: 'CTG',
        display: 'Cytogenetics',
        value: 'KARYOTYPE:      46,XX[20]',
        resultStatus: 'P',
      }),
    ]);
  });

  it('decodes every escape sequence of FT and TX values', () => {
    const [order] = read(
      MSH,
      PID,
      OBR,
      'OBX|1|FT|1||This\\.br\\is\\.br\\A Test~MoreText||||||F',
      'OBX|2|TX|2||\\T\\#39;Thirty days,\\X0D\\April\\X0A\\June \\H\\bold\\N\\ \\.sp 2\\end \\.in+4\\x \\Xc3a9\\ \\Q\\||||||F',
    ).orders;
    expect(order.observations.map((o) => o.value)).toEqual([
      'This\nis\nA Test\nMoreText',
      '&#39;Thirty days,\rApril\nJune bold\n\nend x \u00e9 \\Q\\',
    ]);
  });

  it('reads an ED value as a document: Base64 (also without OBX-5.4), Hex or text, typed from 5.2 and 5.3 or its content', () => {
    const pdf = Buffer.from('%PDF-1.4 tiny');
    const [order] = read(
      MSH,
      PID,
      OBR,
      `OBX|1|ED|PDF^Report||^application^pdf^Base64^${pdf.toString('base64').slice(0, 8)}\\X0D\\\\X0A\\${pdf.toString('base64').slice(8)}||||||F`,
      `OBX|2|ED|PDF^Report||^^^^${pdf.toString('base64')}||||||F`,
      `OBX|3|ED|TXT^Note||^TEXT^^Hex^${Buffer.from('hello').toString('hex')}||||||F`,
      'OBX|4|ED|TXT^Note||^text/plain^^A^plain \\T\\ simple||||||F',
    ).orders;
    expect(order.observations.map((o) => [o.document?.contentType, o.document?.data.toString(), o.value])).toEqual([
      ['application/pdf', '%PDF-1.4 tiny', 'application/pdf document, 13 bytes'],
      ['application/pdf', '%PDF-1.4 tiny', 'application/pdf document, 13 bytes'],
      ['text/plain', 'hello', 'text/plain document, 5 bytes'],
      ['text/plain', 'plain & simple', 'text/plain document, 14 bytes'],
    ]);
  });

  it('hashes the content: the same for CR, LF, CRLF, MLLP framing and another MSH-7; different for other content', () => {
    const hash = (text: string) => readOru(parseMessage(text)).contentHash;
    const base = hash([MSH, PID, OBR, HGB].join('\r'));
    expect(hash([MSH, PID, OBR, HGB].join('\n'))).toBe(base);
    expect(hash(`\x0b${[MSH, PID, OBR, HGB].join('\r\n')}\r\x1c\r`)).toBe(base);
    expect(hash([MSH.replace('20261122083000', '20261122093000'), PID, OBR, HGB].join('\r'))).toBe(base);
    expect(hash([MSH, PID, OBR, HGB.replace('13.2', '13.3')].join('\r'))).not.toBe(base);
  });

  it('reads MSH-3 and MSH-4 with all their components', () => {
    const oru = read(
      'MSH|^~\\&|Lab1^1234^CLIA|^1234^CLIA|ELR|SPH|20080818183002.1-0700||ORU^R01^ORU_R01|1234567890|P^T|2.5.1',
      PID,
      OBR,
      HGB,
    );
    expect(oru).toMatchObject({ sendingApplication: 'Lab1^1234^CLIA', sendingFacility: '^1234^CLIA', version: '2.5.1' });
  });
});

describe('acknowledgment', () => {
  it('adds an ERR segment per part not stored: location, code of table 0357, severity, text', () => {
    const ack = acknowledgment(parseMessage(message(MSH, PID, OBR, HGB)), 'AE', 'Stored 1 result(s)', [
      { segment: 'OBR', position: 2, field: 2, code: '101', text: 'OBR 2: OBR-2 must name the lab order | here' },
    ]);
    const [, msa, err] = ack.split('\r');
    expect(msa).toBe('MSA|AE|MSG0001|Stored 1 result(s)');
    expect(err).toBe('ERR||OBR^2^2|101^Required field missing^HL70357|E||||OBR 2: OBR-2 must name the lab order \\F\\ here');
  });

  const segmentsOf = (ack: string) => ack.split('\r').map((s) => s.split('|'));

  it('answers AA to the sender: addresses swapped, control id echoed, ACK of the same trigger and version', () => {
    const [msh, msa, ...rest] = segmentsOf(acknowledgment(parseMessage(message(MSH, PID, OBR, HGB)), 'AA', null));
    expect(rest).toEqual([]);
    expect(msh.slice(0, 6)).toEqual(['MSH', '^~\\&', 'CCP', 'CLINIC', 'LIS', 'CENTRAL LAB']);
    expect(msh[8]).toBe('ACK^R01^ACK');
    expect(msh[9]).toBeTruthy();
    expect(msh[11]).toBe('2.5.1');
    expect(msa.slice(0, 3)).toEqual(['MSA', 'AA', 'MSG0001']);
  });

  it('carries the reason of an AE in MSA-3, escaped, on one line, at most 80 characters', () => {
    const reason = `Unknown order|ORDER-1^x&y~z\\w\nsecond line ${'x'.repeat(100)}`;
    const ack = acknowledgment(parseMessage(message(MSH, PID, OBR, HGB)), 'AE', reason);
    const [, msa] = ack.split('\r');
    expect(msa.startsWith('MSA|AE|MSG0001|Unknown order\\F\\ORDER-1\\S\\x\\T\\y\\R\\z\\E\\w second line x')).toBe(true);
    // Read back in the message's own delimiters, the text is the reason's first 80 characters.
    const parsed = parseMessage(ack);
    const text = parsed.getSegment('MSA')!.getField(3)!.toString();
    const unescaped = text.replace(/\\(F|S|T|R|E)\\/g, (_, k: string) => ({ F: '|', S: '^', T: '&', R: '~', E: '\\' })[k]!);
    expect(unescaped).toBe(reason.slice(0, 80).replace('\n', ' '));
  });

  it("answers in the message's own delimiters, escaping the reason in them", () => {
    const alt = parseMessage(
      message('MSH#@*!%#LIS#LAB#CCP#CLINIC#20261122083000##ORU@R01#MSG-ALT#P#2.5.1', 'PID#1##MRN-9', 'OBR#1#O', 'OBX#1#NM#1##1#####F'),
    );
    const [msh, msa] = acknowledgment(alt, 'AR', 'bad # thing').split('\r');
    expect(msh.startsWith('MSH#@*!%#CCP#CLINIC#LIS#LAB#')).toBe(true);
    expect(msa).toBe('MSA#AR#MSG-ALT#bad !F! thing');
  });

  it('answers AR with default delimiters and no control id to text that could not be parsed', () => {
    const ack = acknowledgment(null, 'AR', 'Not an HL7v2 message: it must start with an MSH segment');
    expect(ack).toMatch(/^MSH\|\^~\\&\|/);
    const [, msa] = segmentsOf(ack);
    expect(msa).toEqual(['MSA', 'AR', '', 'Not an HL7v2 message: it must start with an MSH segment']);
  });
});
