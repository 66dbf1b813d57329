import { buildSchema, getNamedType, isEnumType, isInputObjectType, isObjectType, type GraphQLNamedType } from 'graphql';
import { signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { addMember, createOrganization } from './support/org';

/**
 * The types of the org and revenue subgraphs say what their values are (docs/graphql.md, "Values"): closed value sets
 * are enums, calendar dates LocalDate, times of day LocalTime, amounts Money; the REST wire keeps its strings.
 */
let app: TestApp;
let doctor: SignedUp;
let orgId: string;

beforeAll(async () => {
  app = await startApp();
  doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
  orgId = (await createOrganization(doctor.api)).id;
});
afterAll(() => app.close());

const ENUMS: Record<string, string> = {
  'User.registrationRole': 'RegistrationRole',
  'RegisterInput.registrationRole': 'RegistrationRole',
  'SocialLoginInput.registrationRole': 'RegistrationRole',
  'AuthPayload.tokenType': 'TokenType',
  'SecurityEvent.type': 'SecurityEventType',
  'LeaveRequest.type': 'LeaveType',
  'CreateLeaveRequestInput.type': 'LeaveType',
  'VerifyDoctorInput.decision': 'VerifyDoctorDecision',
  'DeadLetterAction.outcome': 'DeadLetterOutcome',
  'OrganizationSubscription.lastPaymentStatus': 'SubscriptionPaymentStatus',
  'CheckoutPayment.state': 'CheckoutPaymentState',
  'AdjustStockInput.reason': 'StockAdjustmentReason',
};

const SCALARS: Record<string, string> = {
  'LeaveRequest.startDate': 'LocalDate',
  'LeaveRequest.endDate': 'LocalDate',
  'CreateLeaveRequestInput.startDate': 'LocalDate',
  'Schedule.startTime': 'LocalTime',
  'Schedule.endTime': 'LocalTime',
  'Schedule.validFrom': 'LocalDate',
  'ScheduleBreak.startTime': 'LocalTime',
  'CreateScheduleInput.startTime': 'LocalTime',
  'CreateScheduleInput.validUntil': 'LocalDate',
  'AppointmentKanban.date': 'LocalDate',
  'ResourceAvailability.date': 'LocalDate',
  'DoctorAvailability.from': 'LocalDate',
  'AttendanceDay.date': 'LocalDate',
  'CreateInvoiceInput.dueDate': 'LocalDate',
  'EnrollInPlanInput.startDate': 'LocalDate',
  'AdjustStockInput.expiryDate': 'LocalDate',
  'Doctor.consultationFee': 'Money',
  'Invoice.subtotal': 'Money',
  'Invoice.discountTotal': 'Money',
  'Invoice.taxTotal': 'Money',
  'Invoice.totalAmount': 'Money',
  'Invoice.amountPaid': 'Money',
  'Invoice.amountDue': 'Money',
  'InvoiceLine.unitPrice': 'Money',
  'InvoiceLine.amount': 'Money',
  'InvoiceLine.discount': 'Money',
  'InvoiceLine.taxAmount': 'Money',
  'InvoiceLine.total': 'Money',
  'InvoiceLine.taxRate': 'Decimal',
  'PlanBenefit.limit': 'Money',
  'PurchaseOrderLine.unitCost': 'Money',
  'PurchaseOrderLine.amount': 'Money',
  'SupplyOrderItem.unitPrice': 'Money',
  'SupplyOrderItem.amount': 'Money',
};

describe('the published schema says what values are', () => {
  let types: (name: string) => GraphQLNamedType | undefined;
  beforeAll(async () => {
    const res = await app.api.get('/graphql/schema.graphql', { token: null });
    const schema = buildSchema(res.text);
    types = (name) => schema.getType(name) ?? undefined;
  });

  const fieldType = (path: string): GraphQLNamedType => {
    const [typeName, field] = path.split('.');
    const type = types(typeName);
    if (!isObjectType(type) && !isInputObjectType(type)) throw new Error(`${typeName} is not an object or input type`);
    const f = type.getFields()[field];
    if (!f) throw new Error(`${path} is not in the public schema`);
    return getNamedType(f.type);
  };

  it.each(Object.entries(ENUMS))('%s is the enum %s, with a description', (path, name) => {
    const type = fieldType(path);
    expect(type.name).toBe(name);
    expect(isEnumType(type)).toBe(true);
    expect(type.description).toBeTruthy();
  });

  it.each(Object.entries(SCALARS))('%s is %s', (path, name) => {
    expect(fieldType(path).name).toBe(name);
  });

  it('keeps the wire spelling of enum values (the published schema lists them in name order)', () => {
    const values = (name: string) =>
      (types(name) as import('graphql').GraphQLEnumType)
        .getValues()
        .map((v) => v.name)
        .sort();
    expect(values('RegistrationRole')).toEqual(['DOCTOR', 'LAB_TECHNICIAN', 'NURSE', 'PATIENT', 'PHARMACIST', 'STAFF']);
    expect(values('LeaveType')).toEqual(['annual', 'maternity', 'other', 'paternity', 'sick', 'study', 'unpaid']);
    expect(values('TokenType')).toEqual(['Bearer']);
  });

  it('hides the decimal twins of money fields that serve REST', () => {
    const invoice = types('Invoice');
    if (!isObjectType(invoice)) throw new Error('Invoice is not an object type');
    expect(Object.keys(invoice.getFields()).filter((f) => f.endsWith('Decimal'))).toEqual([]);
  });
});

describe('money on the graph and on the wire', () => {
  it("answers an invoice's totals as Money in GraphQL and as the same decimal strings on REST", async () => {
    const created = await doctor.api.post(`/api/organizations/${orgId}/invoices`, {
      currency: 'KES',
      items: [{ description: 'Consultation', quantity: 2, unit_price: '62.75', tax_rate: '0' }],
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      total_amount: '125.50',
      amount_due: '125.50',
      amount_paid: '0.00',
      items: [{ unit_price: '62.75', amount: '125.50', total: '125.50' }],
    });
    expect(created.body.data).not.toHaveProperty('total_amount_decimal');
    const res = await doctor.api.graphql(
      'query($id: ID!) { invoice(id: $id) { totalAmount { amount currencyCode } amountDue { amount } items { unitPrice { amount currencyCode } } } }',
      { id: created.body.data.id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.invoice).toEqual({
      totalAmount: { amount: '125.50', currencyCode: 'KES' },
      amountDue: { amount: '125.50' },
      items: [{ unitPrice: { amount: '62.75', currencyCode: 'KES' } }],
    });
    // The REST twin is not part of the public graph.
    const hidden = await doctor.api.graphql('query($id: ID!) { invoice(id: $id) { totalAmountDecimal } }', { id: created.body.data.id });
    expect(hidden.status).toBe(400);
  });
});

describe('an invalid enum value', () => {
  it('is a 400 VALIDATION_ERROR naming the field, on GraphQL and on REST', async () => {
    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
    const input = { type: 'vacation', startDate: '2031-03-02', endDate: '2031-03-06' };
    const graph = await nurse.api.graphql(
      'mutation($input: CreateLeaveRequestInput!) { createLeaveRequest(input: $input) { leaveRequest { id } } }',
      {
        input,
      },
    );
    expect(graph.status).toBe(400);
    expect(graph.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(graph.body.errors[0].message).toContain('input.type');

    const rest = await nurse.api.post('/api/leave-requests', { type: 'vacation', start_date: '2031-03-02', end_date: '2031-03-06' });
    expect(rest.status).toBe(400);
    expect(rest.body.error.code).toBe('VALIDATION_ERROR');
    expect(rest.body.error.details).toEqual([
      { field: 'type', message: 'must be one of: annual, sick, maternity, paternity, study, unpaid, other' },
    ]);

    const ok = await nurse.api.post('/api/leave-requests', { type: 'sick', start_date: '2031-03-02', end_date: '2031-03-03' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.type).toBe('sick');
  });
});
