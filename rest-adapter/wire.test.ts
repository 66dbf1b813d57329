import {
  buildSchema,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLObjectType,
  type OperationDefinitionNode,
} from 'graphql';
import { camelCase, snakeCase, snakePath } from '../shared/case';
import type { FieldIssue } from '../shared/errors';
import { compileShape, readInput, shapeValue } from './wire';

const schema = buildSchema(`
  scalar JSON
  scalar DateTimeISO
  enum Gender { female male }
  input AddressInput { line1: String! addressLine2: String postCode: String }
  input ContactInput { phoneNumber: String! isPrimary: Boolean }
  input PatientInput {
    firstName: String!
    dateOfBirth: String
    gender: Gender
    isHIVPositive: Boolean
    visitCount: Int
    heightCm: Float
    address: AddressInput
    contacts: [ContactInput!]
    extraData: JSON
    seenAt: DateTimeISO
    sha256Digest: String
  }
  type Address { line1: String addressLine2: String postCode: String }
  type Contact { phoneNumber: String isPrimary: Boolean }
  type Patient {
    id: ID!
    firstName: String
    isHIVPositive: Boolean
    address: Address
    contacts: [Contact!]!
    extraData: JSON
    sha256Digest: String
  }
  type Query { patient(id: ID!): Patient patients(ids: [ID!]): [Patient!]! }
`);

const patientInput = schema.getType('PatientInput') as GraphQLInputType;

function read(value: unknown, type: GraphQLInputType = patientInput, path = '', fromText = false) {
  const issues: FieldIssue[] = [];
  return { value: readInput(value, type, path, issues, fromText), issues };
}

/** The renaming plan of the root field `patient` in a query document. */
function shapeOf(source: string) {
  const doc = parse(source);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  return compileShape(op.selectionSet, schema.getQueryType() as GraphQLObjectType, fragments);
}

describe('snakeCase and camelCase', () => {
  it.each([
    ['firstName', 'first_name'],
    ['dateOfBirth', 'date_of_birth'],
    ['id', 'id'],
    ['line1', 'line1'],
    ['addressLine2', 'address_line2'],
    ['sha256Digest', 'sha256_digest'],
    ['hl7Message', 'hl7_message'],
  ])('%s <-> %s', (camel, snake) => {
    expect(snakeCase(camel)).toBe(snake);
    expect(camelCase(snake)).toBe(camel);
    // Already in the target spelling: unchanged.
    expect(snakeCase(snake)).toBe(snake);
    expect(camelCase(camel)).toBe(camel);
  });

  it('splits an acronym from the word after it', () => {
    expect(snakeCase('isHIVPositive')).toBe('is_hiv_positive');
    expect(snakeCase('patientID')).toBe('patient_id');
  });

  it('renames every segment of a dotted path', () => {
    expect(snakePath('input.address.postCode')).toBe('input.address.post_code');
  });
});

describe('readInput (request, snake_case to camelCase)', () => {
  it('renames nested objects and objects inside lists, and leaves values as they are', () => {
    const { value, issues } = read({
      first_name: 'Amina Wanjiru',
      date_of_birth: '1988-06-15',
      gender: 'female',
      is_hiv_positive: false,
      visit_count: 3,
      height_cm: 162.5,
      sha256_digest: 'AbC_dEf',
      address: { line1: 'Moi Avenue 1', address_line2: 'Flat_B', post_code: '00100' },
      contacts: [{ phone_number: '+254712345678', is_primary: true }, { phone_number: '+254700000000' }],
      seen_at: '2026-03-29T01:30:00Z',
    });
    expect(issues).toEqual([]);
    expect(value).toEqual({
      firstName: 'Amina Wanjiru',
      dateOfBirth: '1988-06-15',
      gender: 'female',
      isHIVPositive: false,
      visitCount: 3,
      heightCm: 162.5,
      sha256Digest: 'AbC_dEf',
      address: { line1: 'Moi Avenue 1', addressLine2: 'Flat_B', postCode: '00100' },
      contacts: [{ phoneNumber: '+254712345678', isPrimary: true }, { phoneNumber: '+254700000000' }],
      seenAt: '2026-03-29T01:30:00Z',
    });
  });

  it('accepts the GraphQL spelling too', () => {
    expect(read({ firstName: 'A', address: { line1: 'x', addressLine2: 'y' } }).value).toEqual({
      firstName: 'A',
      address: { line1: 'x', addressLine2: 'y' },
    });
  });

  it('passes a JSON scalar through with its own keys untouched', () => {
    const extra = { snake_key: 1, camelKey: { nested_key: [{ another_one: 'v' }] } };
    const { value } = read({ first_name: 'A', extra_data: extra });
    expect((value as { extraData: unknown }).extraData).toEqual({ snake_key: 1, camelKey: { nested_key: [{ another_one: 'v' }] } });
  });

  it('ignores unknown keys', () => {
    expect(read({ first_name: 'A', favourite_colour: 'blue', address: { line1: 'x', floor: 2 } }).value).toEqual({
      firstName: 'A',
      address: { line1: 'x' },
    });
  });

  it('names each problem by its snake_case path, inside objects and lists', () => {
    const { issues } = read({
      visit_count: '3',
      gender: 'other',
      height_cm: 'tall',
      is_hiv_positive: 'no',
      address: { address_line2: 7 },
      contacts: [{ phone_number: '+254712345678' }, { is_primary: true }],
      seen_at: 'yesterday',
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        { field: 'visit_count', message: 'must be an integer' },
        { field: 'gender', message: 'must be one of: female, male' },
        { field: 'height_cm', message: 'must be a number' },
        { field: 'is_hiv_positive', message: 'must be true or false' },
        { field: 'address.address_line2', message: 'must be a string' },
        { field: 'address.line1', message: 'is required' },
        { field: 'contacts[1].phone_number', message: 'is required' },
        { field: 'seen_at', message: expect.stringMatching(/ISO 8601/) },
        { field: 'first_name', message: 'is required' },
      ]),
    );
    expect(issues).toHaveLength(9);
  });

  it('says null is not allowed where a value is required', () => {
    expect(read({ first_name: null }).issues).toEqual([{ field: 'first_name', message: 'must not be null' }]);
    expect(read([1], patientInput, '').issues).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('reads path and query text as the type it stands for', () => {
    const fields = (patientInput as GraphQLInputObjectType).getFields();
    expect(read('42', fields.visitCount.type, 'visit_count', true).value).toBe(42);
    expect(read('4.2', fields.visitCount.type, 'visit_count', true).issues).toEqual([
      { field: 'visit_count', message: 'must be an integer' },
    ]);
    expect(read('true', fields.isHIVPositive.type, 'is_hiv_positive', true).value).toBe(true);
    expect(read('1e2', fields.heightCm.type, 'height_cm', true).value).toBe(100);
    // A number in a JSON body is not read from text.
    expect(read('42', fields.visitCount.type, 'visit_count').issues).toHaveLength(1);
    const ids = schema.getQueryType()!.getFields().patients.args[0].type;
    const [a, b] = ['6f1c2a44-0b7e-4a3e-9a55-1c2d3e4f5a6b', '0b754d76-8717-4fec-b401-dec197638d41'];
    expect(read(`${a},${b}`, ids, 'ids', true).value).toEqual([a, b]);
    // Every ID is a UUID: anything else is named, whatever the list.
    expect(read(`${a},b`, ids, 'ids', true).issues).toEqual([{ field: 'ids[1]', message: 'must be an id (a UUID)' }]);
    expect(read('', fields.firstName.type, 'first_name', true).issues).toEqual([{ field: 'first_name', message: 'is required' }]);
  });
});

describe('compileShape and shapeValue (result, camelCase to snake_case)', () => {
  const result = {
    id: 'p1',
    firstName: 'Amina',
    isHIVPositive: false,
    sha256Digest: 'AbC',
    address: { line1: 'Moi Avenue 1', addressLine2: 'Flat B', postCode: '00100' },
    contacts: [
      { phoneNumber: '+254712345678', isPrimary: true },
      { phoneNumber: '+254700000000', isPrimary: false },
    ],
    extraData: { camelKey: { innerKey: [1, 2] }, snake_key: 'Keep_As_Is' },
  };

  it('renames nested objects and lists of objects, and copies scalar values (JSON included) as they are', () => {
    const [root] = shapeOf(`query {
      patient(id: "p1") {
        id firstName isHIVPositive sha256Digest
        address { line1 addressLine2 postCode }
        contacts { phoneNumber isPrimary }
        extraData
      }
    }`);
    expect(root).toMatchObject({ from: 'patient', to: 'patient' });
    expect(shapeValue(result, root.shape)).toEqual({
      id: 'p1',
      first_name: 'Amina',
      is_hiv_positive: false,
      sha256_digest: 'AbC',
      address: { line1: 'Moi Avenue 1', address_line2: 'Flat B', post_code: '00100' },
      contacts: [
        { phone_number: '+254712345678', is_primary: true },
        { phone_number: '+254700000000', is_primary: false },
      ],
      extra_data: { camelKey: { innerKey: [1, 2] }, snake_key: 'Keep_As_Is' },
    });
  });

  it('shapes a list result item by item and keeps null and missing links as they are', () => {
    const [root] = shapeOf('query { patients { firstName address { postCode } } }');
    expect(
      shapeValue(
        [
          { firstName: 'A', address: null },
          { firstName: 'B', address: { postCode: '1' } },
        ],
        root.shape,
      ),
    ).toEqual([
      { first_name: 'A', address: null },
      { first_name: 'B', address: { post_code: '1' } },
    ]);
    expect(shapeValue(null, root.shape)).toBeNull();
    expect(shapeValue({ firstName: 'A' }, root.shape)).toEqual({ first_name: 'A', address: undefined });
  });

  it('names an aliased field by its alias', () => {
    const [root] = shapeOf('query { patient(id: "p1") { givenName: firstName address { zipCode: postCode } } }');
    expect(shapeValue({ givenName: 'A', address: { zipCode: '1' } }, root.shape)).toEqual({ given_name: 'A', address: { zip_code: '1' } });
  });

  it('follows fragments and inline fragments, merging what each selects of the same field', () => {
    const [root] = shapeOf(`
      query { patient(id: "p1") { id address { line1 } ...More ... on Patient { contacts { isPrimary } } } }
      fragment More on Patient { firstName address { postCode } contacts { phoneNumber } }
    `);
    expect(shapeValue(result, root.shape)).toEqual({
      id: 'p1',
      first_name: 'Amina',
      address: { line1: 'Moi Avenue 1', post_code: '00100' },
      contacts: [
        { is_primary: true, phone_number: '+254712345678' },
        { is_primary: false, phone_number: '+254700000000' },
      ],
    });
  });

  it('merges selections of the same field at every depth', () => {
    const [root] = shapeOf(`
      query { patient(id: "p1") { address { line1 } } ...Deeper }
      fragment Deeper on Query { patient(id: "p1") { address { postCode } } }
    `);
    expect(shapeValue({ address: { line1: 'x', postCode: '1' } }, root.shape)).toEqual({ address: { line1: 'x', post_code: '1' } });
  });
});
