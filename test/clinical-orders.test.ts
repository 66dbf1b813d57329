import { randomUUID } from 'node:crypto';
import { AuditEvent } from '../shared/audit/audit-event.entity';
import { SAMPLE_PATIENT, signInAdmin, signUp, startApp, type SignedUp, type TestApp } from './support/app';
import { clinic, outsider, type Clinic } from './support/clinic';

let app: TestApp;
let c: Clinic;
let stranger: SignedUp & { orgId: string };
/** A second patient of the clinic, for references that must belong to the same patient. */
let otherPatientId: string;

beforeAll(async () => {
  app = await startApp();
  c = await clinic(app);
  stranger = await outsider(app);
  otherPatientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Baraka' })).body
    .data.id;
});
afterAll(() => app.close());

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((r) => r.id);

/** A fresh DICOM UID under the UUID-derived root 2.25 (PS3.5 B.2). */
const dicomUid = () => `2.25.${BigInt(`0x${randomUUID().replace(/-/g, '')}`).toString()}`;

const cbc = {
  category: 'laboratory',
  code: '58410-2',
  code_system: 'http://loinc.org',
  description: 'CBC panel',
  reason: 'Fatigue, pallor',
};

async function serviceRequest(body: Record<string, unknown> = {}): Promise<string> {
  const res = await c.doctor.api.post('/api/service-requests', { patient_id: c.patientId, ...cbc, ...body });
  if (res.status !== 201) throw new Error(`service request: ${res.status} ${res.text}`);
  return res.body.data.id;
}

describe('service requests', () => {
  it('creates an active routine request, reads it and lists it per patient, per organization and by filter', async () => {
    const performer = stranger.orgId;
    const res = await c.doctor.api.post('/api/service-requests', {
      patient_id: c.patientId,
      ...cbc,
      notes: 'Fasting not needed',
      performer_organization_id: performer,
      occurrence_at: '2099-03-01T08:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...cbc,
      notes: 'Fasting not needed',
      priority: 'routine',
      status: 'active',
      patient_id: c.patientId,
      organization_id: c.orgId,
      requester_id: c.doctor.user.id,
      performer_organization_id: performer,
      occurrence_at: '2099-03-01T08:00:00.000Z',
      status_reason: null,
    });
    const id = res.body.data.id;
    expect((await c.nurse.api.get(`/api/service-requests/${id}`)).body.data).toMatchObject({ id, code: '58410-2' });

    const referral = await c.nurse.api.post('/api/service-requests', {
      patient_id: c.patientId,
      category: 'referral',
      code: 'Cardiology',
      priority: 'urgent',
      status: 'draft',
    });
    expect(referral.status).toBe(201);
    expect(referral.body.data).toMatchObject({
      category: 'referral',
      priority: 'urgent',
      status: 'draft',
      code_system: null,
      requester_id: c.nurse.user.id,
    });

    const forPatient = await c.doctor.api.get(`/api/service-requests?patient_id=${c.patientId}&limit=100`);
    expect(forPatient.status).toBe(200);
    expect(ids(forPatient)).toEqual(expect.arrayContaining([id, referral.body.data.id]));
    expect(forPatient.body.meta).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) });
    expect(ids(await c.doctor.api.get('/api/service-requests?limit=100'))).toContain(id);
    const labs = ids(await c.doctor.api.get('/api/service-requests?category=laboratory&limit=100'));
    expect(labs).toContain(id);
    expect(labs).not.toContain(referral.body.data.id);
    const drafts = ids(await c.doctor.api.get(`/api/service-requests?patient_id=${c.patientId}&status=draft&limit=100`));
    expect(drafts).toContain(referral.body.data.id);
    expect(drafts).not.toContain(id);
    expect(ids(await stranger.api.get('/api/service-requests?limit=100'))).not.toContain(id);
  });

  it('works through GraphQL, with the performing organization joined from the org subgraph', async () => {
    const created = await c.doctor.api.graphql(
      'mutation($input: CreateServiceRequestInput!) { createServiceRequest(input: $input) { id status priority performerOrganization { id name } } }',
      { input: { patientId: c.patientId, category: 'imaging', code: 'Chest X-ray', priority: 'stat', performerOrganizationId: c.orgId } },
    );
    expect(created.body.errors).toBeUndefined();
    const request = created.body.data.createServiceRequest;
    expect(request).toMatchObject({ status: 'active', priority: 'stat', performerOrganization: { id: c.orgId, name: expect.any(String) } });
    const held = await c.doctor.api.graphql(
      'mutation($id: ID!) { holdServiceRequest(id: $id, reason: "Patient travelling") { status statusReason } }',
      { id: request.id },
    );
    expect(held.body.data.holdServiceRequest).toEqual({ status: 'on_hold', statusReason: 'Patient travelling' });
    // One mutation per transition: activating is for drafts, a request on hold resumes.
    const activate = await c.doctor.api.graphql('mutation($id: ID!) { activateServiceRequest(id: $id) { status } }', { id: request.id });
    expect(activate.body.errors[0].extensions).toMatchObject({
      code: 'CONFLICT',
      reason: 'ILLEGAL_TRANSITION',
      from: 'on_hold',
      action: 'activate',
    });
    const resumed = await c.doctor.api.graphql('mutation($id: ID!) { resumeServiceRequest(id: $id) { status } }', { id: request.id });
    expect(resumed.body.data.resumeServiceRequest).toEqual({ status: 'active' });
    const list = await c.doctor.api.graphql(
      'query($p: ID!) { serviceRequests(patientId: $p, category: imaging) { total items { id category } } }',
      { p: c.patientId },
    );
    expect(list.body.data.serviceRequests.items.map((r: { id: string }) => r.id)).toContain(request.id);
    expect(list.body.data.serviceRequests.items.every((r: { category: string }) => r.category === 'imaging')).toBe(true);
    expect(
      (await c.doctor.api.graphql('query($id: ID!) { serviceRequest(id: $id) { id } }', { id: request.id })).body.data.serviceRequest.id,
    ).toBe(request.id);
  });

  it('validates its fields, naming each', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.doctor.api.post('/api/service-requests', { patient_id: c.patientId, ...cbc, ...body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details[0].field;
    };
    expect(await field({ code: ' ' })).toBe('code');
    expect(await field({ code: undefined })).toBe('code');
    expect(await field({ category: 'blood' })).toBe('category');
    expect(await field({ priority: 'whenever' })).toBe('priority');
    expect(await field({ code_system: 'loinc' })).toBe('code_system');
    expect(await field({ performer_organization_id: 'lab-down-the-road' })).toBe('performer_organization_id');
    expect(await field({ status: 'completed' })).toBe('status');
    expect(await field({ status: 'pending' })).toBe('status');
    expect(await field({ patient_id: undefined })).toBe('patient_id');
    expect((await c.doctor.api.post('/api/service-requests', { patient_id: randomUUID(), ...cbc })).status).toBe(404);
  });

  it('moves through the FHIR statuses by the status asked for, and refuses the others with 409', async () => {
    const id = await serviceRequest({ status: 'draft' });
    const status = (body: Record<string, unknown>, method: 'patch' | 'post' | 'put' = 'patch') =>
      method === 'put'
        ? c.doctor.api.request('PUT', `/api/service-requests/${id}/status`, body)
        : c.doctor.api[method](`/api/service-requests/${id}/status`, body);

    const early = await status({ status: 'completed' });
    expect(early.status).toBe(409);
    expect(early.body.error).toEqual({ code: 'CONFLICT', message: 'Cannot complete a service request that is draft' });
    expect((await status({ status: 'on_hold' })).status).toBe(409);
    expect((await status({ status: 'active' })).body.data).toMatchObject({
      status: 'active',
      status_changed_by: c.doctor.user.id,
      status_changed_at: expect.any(String),
    });
    expect((await status({ status: 'active' })).status).toBe(409);
    const held = await status({ status: 'on_hold', reason: 'Awaiting consent' }, 'post');
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ status: 'on_hold', status_reason: 'Awaiting consent' });
    expect((await status({ status: 'completed' })).body.error.message).toBe('Cannot complete a service request that is on hold');
    expect((await status({ status: 'active' }, 'put')).body.data).toMatchObject({ status: 'active', status_reason: null });
    expect((await status({ status: 'completed' })).body.data.status).toBe('completed');
    const late = await status({ status: 'revoked' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Cannot revoke a service request that is completed');
    expect((await status({ status: 'entered_in_error' })).status).toBe(409);

    // Unknown statuses, or one no transition leads to, are 400s naming status.
    for (const body of [{ status: 'cancelled' }, { status: 'draft' }, {}]) {
      const res = await status(body);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('status');
    }

    const revoked = await serviceRequest();
    const res = await c.nurse.api.patch(`/api/service-requests/${revoked}/status`, { status: 'revoked', reason: 'Duplicate order' });
    expect(res.body.data).toMatchObject({ status: 'revoked', status_reason: 'Duplicate order', status_changed_by: c.nurse.user.id });
    expect((await c.nurse.api.patch(`/api/service-requests/${revoked}/status`, { status: 'active' })).body.error.message).toBe(
      'Cannot activate a service request that is revoked',
    );
    const audit = await app
      .em('clinical')
      .find(AuditEvent, { resourceType: 'service_request', resourceId: id }, { orderBy: { createdAt: 'asc' } });
    expect(
      audit
        .filter((e) => e.actorType === 'user' && ['create', 'activate', 'hold', 'resume', 'complete'].includes(e.action))
        .map((e) => e.action),
    ).toEqual(['create', 'activate', 'hold', 'resume', 'complete']);
  });

  it('hides a request entered in error from reads, lists and the patient graph', async () => {
    const id = await serviceRequest();
    const res = await c.doctor.api.patch(`/api/service-requests/${id}/status`, { status: 'entered_in_error', reason: 'Wrong patient' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('entered_in_error');
    expect((await c.doctor.api.get(`/api/service-requests/${id}`)).status).toBe(404);
    expect((await c.doctor.api.patch(`/api/service-requests/${id}/status`, { status: 'active' })).status).toBe(404);
    expect(ids(await c.doctor.api.get(`/api/service-requests?patient_id=${c.patientId}&limit=100`))).not.toContain(id);
    expect(ids(await c.doctor.api.get('/api/service-requests?limit=100'))).not.toContain(id);
    expect(ids(await c.doctor.api.get('/api/service-requests?status=entered_in_error'))).toEqual([]);
    const graph = await c.doctor.api.graphql('query($id: ID!) { patient(id: $id) { serviceRequests(first: 100) { nodes { id } } } }', {
      id: c.patientId,
    });
    expect(graph.body.data.patient.serviceRequests.nodes.map((r: { id: string }) => r.id)).not.toContain(id);
    // Nor can a report or a study be made for it.
    const report = await c.doctor.api.post('/api/diagnostic-reports', { patient_id: c.patientId, code: '58410-2', service_request_id: id });
    expect(report.body.error.details[0].field).toBe('service_request_id');
  });

  it("refuses other organizations' clinicians (404), unclinical members (403) and anonymous callers (401)", async () => {
    const id = await serviceRequest();
    expect((await stranger.api.get(`/api/service-requests/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/service-requests?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.post('/api/service-requests', { patient_id: c.patientId, ...cbc })).status).toBe(404);
    expect((await stranger.api.patch(`/api/service-requests/${id}/status`, { status: 'revoked' })).status).toBe(404);
    expect((await c.billing.api.get(`/api/service-requests/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/service-requests', { patient_id: c.patientId, ...cbc })).status).toBe(403);
    expect((await c.billing.api.patch(`/api/service-requests/${id}/status`, { status: 'revoked' })).status).toBe(403);
    expect((await c.billing.api.get('/api/service-requests')).body.data).toEqual([]);
    expect((await app.api.get('/api/service-requests')).status).toBe(401);
    expect((await app.api.post('/api/service-requests', { patient_id: c.patientId, ...cbc })).status).toBe(401);
    expect((await app.api.patch(`/api/service-requests/${id}/status`, { status: 'revoked' })).status).toBe(401);
    expect((await c.doctor.api.get(`/api/service-requests/${randomUUID()}`)).status).toBe(404);
    expect((await c.doctor.api.patch(`/api/service-requests/${randomUUID()}/status`, { status: 'revoked' })).status).toBe(404);
    expect((await c.doctor.api.get(`/api/service-requests/${id}`)).body.data.status).toBe('active');
  });
});

describe('diagnostic reports', () => {
  const report = {
    category: 'laboratory',
    code: '58410-2',
    code_system: 'http://loinc.org',
    title: 'Full blood count',
    findings: 'Hb 9.1 g/dL, MCV 68 fL',
    conclusion: 'Microcytic anaemia',
    result_summary: 'Low haemoglobin',
  };

  async function preliminary(body: Record<string, unknown> = {}): Promise<string> {
    const res = await c.nurse.api.post('/api/diagnostic-reports', { patient_id: c.patientId, ...report, ...body });
    if (res.status !== 201) throw new Error(`report: ${res.status} ${res.text}`);
    return res.body.data.id;
  }

  it('creates a preliminary report for a service request, reads it and lists it with filters', async () => {
    const requestId = await serviceRequest();
    const res = await c.nurse.api.post('/api/diagnostic-reports', {
      patient_id: c.patientId,
      service_request_id: requestId,
      ...report,
      effective_at: '2024-05-02T07:30:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...report,
      service_request_id: requestId,
      effective_at: '2024-05-02T07:30:00.000Z',
      status: 'preliminary',
      patient_id: c.patientId,
      organization_id: c.orgId,
      recorded_by: c.nurse.user.id,
      signed_by: null,
      signed_at: null,
    });
    const id = res.body.data.id;
    expect((await c.doctor.api.get(`/api/diagnostic-reports/${id}`)).body.data.id).toBe(id);
    const pathology = await preliminary({ category: 'pathology', code: 'Skin biopsy' });
    expect(ids(await c.doctor.api.get(`/api/diagnostic-reports?patient_id=${c.patientId}&limit=100`))).toEqual(
      expect.arrayContaining([id, pathology]),
    );
    expect(ids(await c.doctor.api.get(`/api/diagnostic-reports?service_request_id=${requestId}`))).toEqual([id]);
    const labs = ids(await c.doctor.api.get('/api/diagnostic-reports?category=laboratory&limit=100'));
    expect(labs).toContain(id);
    expect(labs).not.toContain(pathology);
    expect(ids(await c.doctor.api.get('/api/diagnostic-reports?status=final&limit=100'))).not.toContain(id);
    expect(ids(await stranger.api.get('/api/diagnostic-reports?limit=100'))).not.toContain(id);
  });

  it('validates its fields and its service request, naming each', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.nurse.api.post('/api/diagnostic-reports', { patient_id: c.patientId, ...report, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ code: '' })).toBe('code');
    expect(await field({ category: 'radiology' })).toBe('category');
    expect(await field({ effective_at: new Date(Date.now() + 3_600_000).toISOString() })).toBe('effective_at');
    expect(await field({ code_system: 'SNOMED' })).toBe('code_system');
    const othersRequest = (await c.doctor.api.post('/api/service-requests', { patient_id: otherPatientId, ...cbc })).body.data.id;
    expect(await field({ service_request_id: othersRequest })).toBe('service_request_id');
    expect(await field({ service_request_id: randomUUID() })).toBe('service_request_id');
    expect(await field({ service_request_id: 'order-1' })).toBe('service_request_id');
    expect((await c.doctor.api.get('/api/diagnostic-reports?category=radiology')).body.error.details[0].field).toBe('category');
  });

  it('is signed by a doctor of the organization, once, completing the active request it answers', async () => {
    const requestId = await serviceRequest();
    const id = await preliminary({ service_request_id: requestId });
    const byNurse = await c.nurse.api.post(`/api/diagnostic-reports/${id}/sign`);
    expect(byNurse.status).toBe(403);
    expect(byNurse.body.error).toEqual({ code: 'FORBIDDEN', message: 'Only a doctor can sign a diagnostic report' });
    expect((await c.billing.api.post(`/api/diagnostic-reports/${id}/sign`)).status).toBe(403);
    expect((await stranger.api.post(`/api/diagnostic-reports/${id}/sign`)).status).toBe(404);
    expect((await app.api.post(`/api/diagnostic-reports/${id}/sign`)).status).toBe(401);
    expect((await c.doctor.api.post(`/api/diagnostic-reports/${randomUUID()}/sign`)).status).toBe(404);

    const signed = await c.doctor.api.post(`/api/diagnostic-reports/${id}/sign`);
    expect(signed.status).toBe(200);
    expect(signed.body.data).toMatchObject({ id, status: 'final', signed_by: c.doctor.user.id, signed_at: expect.any(String) });
    expect((await c.doctor.api.get(`/api/service-requests/${requestId}`)).body.data).toMatchObject({
      status: 'completed',
      status_changed_by: c.doctor.user.id,
    });
    const again = await c.doctor.api.post(`/api/diagnostic-reports/${id}/sign`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Cannot sign a diagnostic report that is final');
    expect(ids(await c.doctor.api.get('/api/diagnostic-reports?status=final&limit=100'))).toContain(id);
    const audit = await app.em('clinical').find(AuditEvent, { resourceType: 'service_request', resourceId: requestId, action: 'complete' });
    expect(audit[0].details).toMatchObject({ diagnostic_report_id: id, status: { from: 'active', to: 'completed' } });

    // A request on hold is left as it is.
    const heldId = await serviceRequest();
    await c.doctor.api.patch(`/api/service-requests/${heldId}/status`, { status: 'on_hold' });
    const forHeld = await preliminary({ service_request_id: heldId });
    expect(
      (await c.doctor.api.graphql('mutation($id: ID!) { signDiagnosticReport(id: $id) { status signedBy } }', { id: forHeld })).body.data
        .signDiagnosticReport,
    ).toEqual({
      status: 'final',
      signedBy: c.doctor.user.id,
    });
    expect((await c.doctor.api.get(`/api/service-requests/${heldId}`)).body.data.status).toBe('on_hold');
  });

  it('changes while preliminary; a final report is immutable', async () => {
    const id = await preliminary();
    const edit = await c.nurse.api.patch(`/api/diagnostic-reports/${id}`, { conclusion: 'Iron deficiency anaemia', title: null });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({
      conclusion: 'Iron deficiency anaemia',
      title: null,
      status: 'preliminary',
      updated_by: c.nurse.user.id,
    });
    expect((await c.nurse.api.patch(`/api/diagnostic-reports/${id}`, { code: null })).body.error.details[0].field).toBe('code');
    expect((await c.nurse.api.patch(`/api/diagnostic-reports/${id}`, { category: 'gossip' })).body.error.details[0].field).toBe('category');
    const change = await app
      .em('clinical')
      .findOneOrFail(AuditEvent, { resourceType: 'diagnostic_report', resourceId: id, action: 'update' });
    expect(change.details).toEqual({
      fields: expect.arrayContaining(['conclusion', 'title']),
      previous: { conclusion: 'Microcytic anaemia', title: 'Full blood count' },
    });
    expect(change.details.fields).toHaveLength(2);
    expect((await stranger.api.patch(`/api/diagnostic-reports/${id}`, { conclusion: 'x' })).status).toBe(404);
    expect((await c.billing.api.patch(`/api/diagnostic-reports/${id}`, { conclusion: 'x' })).status).toBe(403);

    await c.doctor.api.post(`/api/diagnostic-reports/${id}/sign`);
    const late = await c.doctor.api.patch(`/api/diagnostic-reports/${id}`, { conclusion: 'Changed after signing' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Cannot edit a diagnostic report that is final');
    expect((await c.doctor.api.get(`/api/diagnostic-reports/${id}`)).body.data.conclusion).toBe('Iron deficiency anaemia');
  });

  it('outside any organization, is signed only by a user registered as a doctor', async () => {
    const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
    const own = (await doctor.api.post('/api/patients', SAMPLE_PATIENT)).body.data.id;
    const id = (await doctor.api.post('/api/diagnostic-reports', { patient_id: own, code: 'ECG', category: 'cardiology' })).body.data.id;
    expect((await doctor.api.post(`/api/diagnostic-reports/${id}/sign`)).body.data.status).toBe('final');

    const nurse = await signUp(app.api, { registration_role: 'NURSE' });
    const theirs = (await nurse.api.post('/api/patients', SAMPLE_PATIENT)).body.data.id;
    const draft = await nurse.api.post('/api/diagnostic-reports', { patient_id: theirs, code: 'ECG' });
    expect(draft.status).toBe(201);
    expect((await nurse.api.post(`/api/diagnostic-reports/${draft.body.data.id}/sign`)).status).toBe(403);
    expect((await doctor.api.post(`/api/diagnostic-reports/${draft.body.data.id}/sign`)).status).toBe(404);
  });

  it("refuses other organizations' clinicians (404), unclinical members (403) and anonymous callers (401)", async () => {
    const id = await preliminary();
    expect((await stranger.api.get(`/api/diagnostic-reports/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/diagnostic-reports?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.post('/api/diagnostic-reports', { patient_id: c.patientId, ...report })).status).toBe(404);
    expect((await c.billing.api.get(`/api/diagnostic-reports/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/diagnostic-reports', { patient_id: c.patientId, ...report })).status).toBe(403);
    expect((await c.billing.api.get('/api/diagnostic-reports')).body.data).toEqual([]);
    expect((await app.api.get('/api/diagnostic-reports')).status).toBe(401);
    expect((await app.api.get(`/api/diagnostic-reports/${id}`)).status).toBe(401);
    expect((await c.doctor.api.get(`/api/diagnostic-reports/${randomUUID()}`)).status).toBe(404);
  });
});

describe('imaging studies', () => {
  const study = {
    modality: 'CT',
    body_part: 'head',
    description: 'CT head without contrast',
    number_of_series: 3,
    number_of_instances: 412,
  };

  async function imagingOrder(patientId = c.patientId): Promise<string> {
    return (await c.doctor.api.post('/api/imaging', { patient_id: patientId, modality: 'CT', clinical_indication: 'Head injury' })).body
      .data.id;
  }

  async function registered(body: Record<string, unknown> = {}): Promise<string> {
    const res = await c.nurse.api.post('/api/imaging-studies', {
      patient_id: c.patientId,
      ...study,
      study_instance_uid: dicomUid(),
      ...body,
    });
    if (res.status !== 201) throw new Error(`study: ${res.status} ${res.text}`);
    return res.body.data.id;
  }

  it('records a study for an imaging order (registered by default), reads it and lists it with filters', async () => {
    const orderId = await imagingOrder();
    const uid = dicomUid();
    const res = await c.nurse.api.post('/api/imaging-studies', {
      patient_id: c.patientId,
      imaging_order_id: orderId,
      ...study,
      study_instance_uid: uid,
      started_at: '2024-05-02T07:30:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      ...study,
      imaging_order_id: orderId,
      service_request_id: null,
      study_instance_uid: uid,
      started_at: '2024-05-02T07:30:00.000Z',
      status: 'registered',
      patient_id: c.patientId,
      organization_id: c.orgId,
      recorded_by: c.nurse.user.id,
    });
    const id = res.body.data.id;
    expect((await c.doctor.api.get(`/api/imaging-studies/${id}`)).body.data.id).toBe(id);
    const requestId = await serviceRequest({ category: 'imaging', code: 'Chest X-ray' });
    const xray = await c.nurse.api.post('/api/imaging-studies', {
      patient_id: c.patientId,
      service_request_id: requestId,
      modality: 'CR',
      status: 'available',
    });
    expect(xray.body.data).toMatchObject({
      service_request_id: requestId,
      modality: 'CR',
      status: 'available',
      study_instance_uid: null,
      number_of_series: null,
    });
    expect(ids(await c.doctor.api.get(`/api/imaging-studies?patient_id=${c.patientId}&limit=100`))).toEqual(
      expect.arrayContaining([id, xray.body.data.id]),
    );
    const cts = ids(await c.doctor.api.get('/api/imaging-studies?modality=CT&limit=100'));
    expect(cts).toContain(id);
    expect(cts).not.toContain(xray.body.data.id);
    expect(ids(await c.doctor.api.get('/api/imaging-studies?status=available&limit=100'))).toContain(xray.body.data.id);
    expect(ids(await stranger.api.get('/api/imaging-studies?limit=100'))).not.toContain(id);
  });

  it('works through GraphQL', async () => {
    const create = `mutation($input: CreateImagingStudyInput!) {
      createImagingStudy(input: $input) { imagingStudy { id status modality numberOfSeries } userErrors { field message code } }
    }`;
    const uid = dicomUid();
    const created = await c.doctor.api.graphql(create, {
      input: { patientId: c.patientId, modality: 'MR', numberOfSeries: 0, studyInstanceUid: uid },
    });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createImagingStudy.userErrors).toEqual([]);
    const { id } = created.body.data.createImagingStudy.imagingStudy;
    expect(created.body.data.createImagingStudy.imagingStudy).toMatchObject({ status: 'registered', modality: 'MR', numberOfSeries: 0 });
    // A Study Instance UID taken and a bad field are user errors, the study null.
    const taken = await c.doctor.api.graphql(create, { input: { patientId: c.patientId, modality: 'MR', studyInstanceUid: uid } });
    expect(taken.body.errors).toBeUndefined();
    expect(taken.body.data.createImagingStudy).toEqual({
      imagingStudy: null,
      userErrors: [{ field: null, message: `An imaging study with Study Instance UID ${uid} already exists`, code: 'DUPLICATE' }],
    });
    const bad = await c.doctor.api.graphql(create, { input: { patientId: c.patientId, modality: 'MR', studyInstanceUid: '1.02.3' } });
    expect(bad.body.data.createImagingStudy).toEqual({
      imagingStudy: null,
      userErrors: [{ field: ['input', 'studyInstanceUid'], message: expect.any(String), code: 'INVALID' }],
    });
    const available = await c.doctor.api.graphql('mutation($id: ID!) { makeImagingStudyAvailable(id: $id) { status statusChangedBy } }', {
      id,
    });
    expect(available.body.data.makeImagingStudyAvailable).toEqual({ status: 'available', statusChangedBy: c.doctor.user.id });
    const cancelled = await c.doctor.api.graphql('mutation($id: ID!) { cancelImagingStudy(id: $id) { status } }', { id });
    expect(cancelled.body.errors[0].message).toBe('Cannot cancel an imaging study that is available');
    expect(cancelled.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'ILLEGAL_TRANSITION', from: 'available' });
    const read = await c.doctor.api.graphql('query($id: ID!) { imagingStudy(id: $id) { id status } }', { id });
    expect(read.body.data.imagingStudy).toEqual({ id, status: 'available' });
    const list = await c.doctor.api.graphql('query($p: ID!) { imagingStudies(patientId: $p, modality: MR) { items { id } } }', {
      p: c.patientId,
    });
    expect(list.body.data.imagingStudies.items.map((s: { id: string }) => s.id)).toContain(id);
  });

  it('validates its fields and the order it fulfils, naming each', async () => {
    const field = async (body: Record<string, unknown>) => {
      const res = await c.nurse.api.post('/api/imaging-studies', { patient_id: c.patientId, ...study, ...body });
      expect(res.status).toBe(400);
      return res.body.error.details[0].field;
    };
    expect(await field({ modality: 'XR' })).toBe('modality');
    expect(await field({ modality: undefined })).toBe('modality');
    expect(await field({ study_instance_uid: '1.2.abc' })).toBe('study_instance_uid');
    expect(await field({ study_instance_uid: '1.02.3' })).toBe('study_instance_uid');
    expect(await field({ study_instance_uid: '1.2.' })).toBe('study_instance_uid');
    expect(await field({ study_instance_uid: `1.${'2'.repeat(63)}` })).toBe('study_instance_uid');
    expect(await field({ number_of_series: -1 })).toBe('number_of_series');
    expect(await field({ number_of_instances: 1.5 })).toBe('number_of_instances');
    expect(await field({ started_at: new Date(Date.now() + 3_600_000).toISOString() })).toBe('started_at');
    expect(await field({ status: 'cancelled' })).toBe('status');
    expect(await field({ imaging_order_id: await imagingOrder(otherPatientId) })).toBe('imaging_order_id');
    expect(await field({ imaging_order_id: randomUUID() })).toBe('imaging_order_id');
    expect(await field({ service_request_id: randomUUID() })).toBe('service_request_id');
    expect(
      (await c.nurse.api.post('/api/imaging-studies', { patient_id: c.patientId, ...study, study_instance_uid: `1.${'2'.repeat(62)}` }))
        .status,
    ).toBe(201);
  });

  it('refuses a second study with the same Study Instance UID (409), unless the first was entered in error', async () => {
    const uid = dicomUid();
    const first = await registered({ study_instance_uid: uid });
    const dup = await c.nurse.api.post('/api/imaging-studies', { patient_id: c.patientId, ...study, study_instance_uid: uid });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    expect((await c.nurse.api.post('/api/imaging-studies', { patient_id: otherPatientId, ...study, study_instance_uid: uid })).status).toBe(
      409,
    );
    await c.doctor.api.patch(`/api/imaging-studies/${first}/status`, { status: 'entered_in_error', reason: 'Wrong patient' });
    const again = await c.nurse.api.post('/api/imaging-studies', { patient_id: otherPatientId, ...study, study_instance_uid: uid });
    expect(again.status).toBe(201);
  });

  it('moves registered → available or cancelled, refusing the others with 409 and unknown statuses with 400', async () => {
    const id = await registered();
    const status = (sid: string, body: Record<string, unknown>) => c.doctor.api.patch(`/api/imaging-studies/${sid}/status`, body);
    const available = await status(id, { status: 'available' });
    expect(available.status).toBe(200);
    expect(available.body.data).toMatchObject({
      status: 'available',
      status_changed_by: c.doctor.user.id,
      status_changed_at: expect.any(String),
    });
    const cancel = await status(id, { status: 'cancelled' });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.message).toBe('Cannot cancel an imaging study that is available');
    expect((await status(id, { status: 'available' })).status).toBe(409);
    for (const body of [{ status: 'registered' }, { status: 'deleted' }]) {
      const res = await status(id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('status');
    }

    const other = await registered();
    const cancelled = await c.nurse.api.post(`/api/imaging-studies/${other}/status`, { status: 'cancelled', reason: 'Patient left' });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', status_reason: 'Patient left' });
    expect((await status(other, { status: 'available' })).body.error.message).toBe(
      'Cannot make available an imaging study that is cancelled',
    );
    expect((await status(other, { status: 'entered_in_error' })).body.error.message).toBe(
      'Cannot enter in error an imaging study that is cancelled',
    );
  });

  it('hides a study entered in error from reads, lists and the patient graph', async () => {
    const id = await registered();
    expect((await c.doctor.api.patch(`/api/imaging-studies/${id}/status`, { status: 'entered_in_error' })).body.data.status).toBe(
      'entered_in_error',
    );
    expect((await c.doctor.api.get(`/api/imaging-studies/${id}`)).status).toBe(404);
    expect((await c.doctor.api.patch(`/api/imaging-studies/${id}/status`, { status: 'available' })).status).toBe(404);
    expect(ids(await c.doctor.api.get(`/api/imaging-studies?patient_id=${c.patientId}&limit=100`))).not.toContain(id);
    expect(ids(await c.doctor.api.get('/api/imaging-studies?status=entered_in_error'))).toEqual([]);
    const graph = await c.doctor.api.graphql('query($id: ID!) { patient(id: $id) { imagingStudies(first: 100) { nodes { id } } } }', {
      id: c.patientId,
    });
    expect(graph.body.data.patient.imagingStudies.nodes.map((s: { id: string }) => s.id)).not.toContain(id);
  });

  it("refuses other organizations' clinicians (404), unclinical members (403) and anonymous callers (401)", async () => {
    const id = await registered();
    expect((await stranger.api.get(`/api/imaging-studies/${id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/imaging-studies?patient_id=${c.patientId}`)).status).toBe(404);
    expect((await stranger.api.post('/api/imaging-studies', { patient_id: c.patientId, ...study })).status).toBe(404);
    expect((await stranger.api.patch(`/api/imaging-studies/${id}/status`, { status: 'cancelled' })).status).toBe(404);
    expect((await c.billing.api.get(`/api/imaging-studies/${id}`)).status).toBe(403);
    expect((await c.billing.api.post('/api/imaging-studies', { patient_id: c.patientId, ...study })).status).toBe(403);
    expect((await c.billing.api.patch(`/api/imaging-studies/${id}/status`, { status: 'cancelled' })).status).toBe(403);
    expect((await c.billing.api.get('/api/imaging-studies')).body.data).toEqual([]);
    expect((await app.api.get('/api/imaging-studies')).status).toBe(401);
    expect((await app.api.patch(`/api/imaging-studies/${id}/status`, { status: 'cancelled' })).status).toBe(401);
    expect((await c.doctor.api.get(`/api/imaging-studies/${randomUUID()}`)).status).toBe(404);
    expect((await c.doctor.api.get(`/api/imaging-studies/${id}`)).body.data.status).toBe('registered');
  });
});

describe('the patient graph, the journey and the export', () => {
  it('gives each patient of a page its newest requests, reports and studies', async () => {
    const patientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Chebet' })).body
      .data.id;
    const requestId = (await c.doctor.api.post('/api/service-requests', { patient_id: patientId, code: 'Malaria RDT' })).body.data.id;
    const reportId = (
      await c.doctor.api.post('/api/diagnostic-reports', { patient_id: patientId, service_request_id: requestId, code: 'Malaria RDT' })
    ).body.data.id;
    const studyId = (await c.doctor.api.post('/api/imaging-studies', { patient_id: patientId, modality: 'US' })).body.data.id;
    const res = await c.doctor.api.graphql(
      'query($org: ID!) { organizationPatients(organizationId: $org, limit: 10) { items { id serviceRequests { nodes { id patientId } } diagnosticReports { nodes { id serviceRequestId } } imagingStudies(first: 5) { nodes { id modality } } } } }',
      { org: c.orgId },
    );
    expect(res.body.errors).toBeUndefined();
    const byId = new Map(res.body.data.organizationPatients.items.map((p: { id: string }) => [p.id, p]));
    expect(byId.get(patientId)).toEqual({
      id: patientId,
      serviceRequests: { nodes: [{ id: requestId, patientId }] },
      diagnosticReports: { nodes: [{ id: reportId, serviceRequestId: requestId }] },
      imagingStudies: { nodes: [{ id: studyId, modality: 'US' }] },
    });
    const first = byId.get(c.patientId) as { serviceRequests: { nodes: unknown[] }; imagingStudies: { nodes: unknown[] } };
    expect(first.serviceRequests.nodes.length).toBeGreaterThan(0);
    expect(first.imagingStudies.nodes.length).toBeLessThanOrEqual(5);
  });

  it('shows them on the care journey and in the data export', async () => {
    const patientId = (await c.doctor.api.post(`/api/organizations/${c.orgId}/patients`, { ...SAMPLE_PATIENT, first_name: 'Njeri' })).body
      .data.id;
    const requestId = (
      await c.doctor.api.post('/api/service-requests', { patient_id: patientId, category: 'imaging', code: 'Chest X-ray' })
    ).body.data.id;
    const reportId = (
      await c.doctor.api.post('/api/diagnostic-reports', { patient_id: patientId, code: 'Chest X-ray', title: 'Chest radiograph' })
    ).body.data.id;
    const studyId = (await c.doctor.api.post('/api/imaging-studies', { patient_id: patientId, modality: 'CR', body_part: 'chest' })).body
      .data.id;
    const mistaken = (await c.doctor.api.post('/api/imaging-studies', { patient_id: patientId, modality: 'CT' })).body.data.id;
    await c.doctor.api.patch(`/api/imaging-studies/${mistaken}/status`, { status: 'entered_in_error' });

    const journey = (await c.doctor.api.get(`/api/patients/${patientId}/journey?limit=100`)).body.data as {
      kind: string;
      resource_id: string;
      title: string;
    }[];
    expect(journey.find((e) => e.resource_id === requestId)).toMatchObject({
      kind: 'service_request',
      title: 'Service request (imaging): Chest X-ray',
    });
    expect(journey.find((e) => e.resource_id === reportId)).toMatchObject({
      kind: 'diagnostic_report',
      title: 'Diagnostic report (preliminary): Chest radiograph',
    });
    expect(journey.find((e) => e.resource_id === studyId)).toMatchObject({ kind: 'imaging_study', title: 'Imaging study: CR chest' });
    expect(journey.map((e) => e.resource_id)).not.toContain(mistaken);

    const admin = await signInAdmin(app.api);
    const exported = await admin.get(`/api/patients/${patientId}/export`);
    expect(exported.status).toBe(200);
    const sections = exported.body.data.sections;
    expect(sections.service_requests.map((r: { id: string }) => r.id)).toEqual([requestId]);
    expect(sections.service_requests[0]).toMatchObject({ code: 'Chest X-ray', requester_id: c.doctor.user.id });
    expect(sections.diagnostic_reports.map((r: { id: string }) => r.id)).toEqual([reportId]);
    expect(sections.imaging_studies.map((r: { id: string }) => r.id)).toEqual([studyId, mistaken]);
  });
});
