import { DateTime } from 'luxon';
import { DoctorOrganization, DoctorProfile } from '../../subgraphs/org/doctors/doctor.entity';
import { signUp, type SignedUp, type TestApp } from './app';
import { clinic, type Clinic } from './clinic';
import { addMember } from './org';
import { eventually } from './wait';

/** A clinic with a receptionist (scheduling:write) and the doctor's profile, linked to the clinic. */
export interface SchedulingClinic extends Clinic {
  receptionist: SignedUp;
  doctorProfileId: string;
}

export async function schedulingClinic(app: TestApp): Promise<SchedulingClinic> {
  const c = await clinic(app);
  const receptionist = await signUp(app.api, { registration_role: 'STAFF' });
  await addMember(app, c.orgId, receptionist.user.id, 'ORG:RECEPTIONIST');
  const doctorProfileId = await linkedDoctor(app, c.doctor.user.id, c.orgId);
  return { ...c, receptionist, doctorProfileId };
}

/** The doctor profile of a user once the bus has created it and linked it to the organization. */
export async function linkedDoctor(app: TestApp, userId: string, orgId: string): Promise<string> {
  const profile = await eventually(() => app.em('org').findOne(DoctorProfile, { userId }), 'doctor profile');
  await eventually(
    () => app.em('org').count(DoctorOrganization, { doctor: profile.id, organization: orgId }),
    'doctor linked to the organization',
  );
  return profile.id;
}

/** A date `days` from today in a zone, `YYYY-MM-DD`. */
export const dayAhead = (days: number, zone = 'UTC') => DateTime.now().setZone(zone).plus({ days }).toISODate()!;

/** The ISO UTC instant of a local wall-clock time. */
export const at = (date: string, hhmm: string, zone = 'UTC') => DateTime.fromISO(`${date}T${hhmm}`, { zone }).toUTC().toISO()!;

/** ISO weekday (1 = Monday) of a date. */
export const weekday = (date: string) => DateTime.fromISO(date).weekday;

export const EVERY_DAY = [1, 2, 3, 4, 5, 6, 7];
