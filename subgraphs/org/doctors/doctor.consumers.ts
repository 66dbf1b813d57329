import { LockMode } from '@mikro-orm/core';
import { PermanentEventError, type ConsumerDefinition } from '../../../shared/events';
import { MEMBER_ADDED, type MemberAddedPayload } from '../organizations/organization.events';
import { USER_CREATED, type UserCreatedPayload } from '../users/user.events';
import { lockOrganization } from '../organizations/member.service';
import { Organization, OrganizationMember } from '../organizations/organization.entity';
import { User } from '../users/user.entity';
import { DoctorOrganization, DoctorProfile } from './doctor.entity';

/** svc.auth.user_created: a DOCTOR who registers gets a doctor profile (pending verification). */
export const doctorProfiles: ConsumerDefinition = {
  name: 'doctor-profiles',
  description: 'gives a `DOCTOR` who registers a doctor profile (verification `pending`)',
  topics: [USER_CREATED.name],
  async handle(event, { em }) {
    const p = event.payload as Partial<UserCreatedPayload>;
    if (!p.user_id || !p.email) throw new PermanentEventError('user_created carries no user_id or email');
    if (p.registration_role !== 'DOCTOR') return;
    if (await em.count(DoctorProfile, { userId: p.user_id })) return;
    em.create(DoctorProfile, { userId: p.user_id, email: p.email, firstName: p.first_name ?? '', lastName: p.last_name ?? '' });
  },
};

/**
 * svc.organization.member_added: a member with a doctor profile (still a member when the event arrives) is linked to
 * the organization, with their membership's role. Joining through
 * `POST /api/doctors/:id/organizations` writes the link with the membership, so the link may already be there.
 */
export const doctorOrganizations: ConsumerDefinition = {
  name: 'doctor-organizations',
  description: "links a new member's doctor profile to the organization",
  topics: [MEMBER_ADDED.name],
  async handle(event, { em }) {
    const p = event.payload as Partial<MemberAddedPayload>;
    if (!p.user_id || !p.organization_id || !p.role)
      throw new PermanentEventError('member_added carries no user_id, organization_id or role');
    const user = await em.findOne(User, { id: p.user_id });
    if (!user) throw new PermanentEventError(`user ${p.user_id} does not exist`);
    // A member who has left since (a doctor leaving ends an ORG:DOCTOR membership) is not linked again. The locks
    // (organization first, as every membership change takes them) make a leave or role change committing at this
    // moment either finish first or wait for this check.
    if (!(await em.count(Organization, { id: p.organization_id }))) return;
    await lockOrganization(em, p.organization_id, 'share');
    const membership = await em.findOne(
      OrganizationMember,
      { organization: p.organization_id, user: p.user_id },
      { lockMode: LockMode.PESSIMISTIC_WRITE },
    );
    if (!membership) return;
    const profile = await em.findOne(DoctorProfile, { userId: p.user_id });
    if (!profile) {
      // A DOCTOR's profile comes from user_created on another queue; it may simply not be there yet: retry.
      if (user.registrationRole === 'DOCTOR') throw new Error(`the doctor profile of user ${p.user_id} does not exist yet`);
      return;
    }
    if (await em.count(DoctorOrganization, { doctor: profile, organization: p.organization_id })) return;
    em.create(DoctorOrganization, {
      doctor: profile,
      organization: em.getReference(Organization, p.organization_id),
      role: membership.role,
    });
  },
};
