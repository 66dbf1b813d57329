import { SAMPLE_PATIENT, signUp, type Api, type SignedUp, type TestApp } from './app';
import { OrganizationMember } from '../../subgraphs/org/organizations/organization.entity';
import { forgetUser } from '../../subgraphs/org/users/identity';
import { addMember, createOrganization } from './org';

/** A clinic with a doctor (its creator, ORG:ADMIN), a nurse, a billing clerk and a registered patient. */
export interface Clinic {
  orgId: string;
  doctor: SignedUp;
  nurse: SignedUp;
  billing: SignedUp;
  patientId: string;
}

export async function clinic(app: TestApp): Promise<Clinic> {
  const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
  const orgId = (await createOrganization(doctor.api)).id;
  // The creator is ORG:ADMIN; clinical writes need a clinical role, so the doctor is made ORG:DOCTOR.
  await setRole(app, orgId, doctor.user.id, 'ORG:DOCTOR');
  const nurse = await signUp(app.api, { registration_role: 'NURSE' });
  await addMember(app, orgId, nurse.user.id, 'ORG:NURSE');
  const billing = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, orgId, billing.user.id, 'ORG:BILLING');
  const patient = await doctor.api.post(`/api/organizations/${orgId}/patients`, SAMPLE_PATIENT);
  if (patient.status !== 201) throw new Error(`patient: ${patient.status} ${patient.text}`);
  return { orgId, doctor, nurse, billing, patientId: patient.body.data.id };
}

export async function setRole(app: TestApp, orgId: string, userId: string, role: string): Promise<void> {
  await app.em('org').nativeUpdate(OrganizationMember, { organization: orgId, user: userId }, { role, roles: [role] });
  await forgetUser(userId);
}

/** A doctor with an organization of their own, outside the clinic. */
export async function outsider(app: TestApp): Promise<SignedUp & { orgId: string }> {
  const doctor = await signUp(app.api, { registration_role: 'DOCTOR' });
  const orgId = (await createOrganization(doctor.api)).id;
  await setRole(app, orgId, doctor.user.id, 'ORG:DOCTOR');
  return { ...doctor, orgId };
}

export type { Api };
