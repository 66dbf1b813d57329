import { defineModule } from '../../../shared/module';
import { userFields } from '../users/user-link';
import { OrganizationInvitation } from './invitation.entity';
import { InvitationResolver } from './invitation.resolver';
import { MemberResolver, OrganizationMembersResolver } from './member.resolver';
import { Organization, OrganizationMember } from './organization.entity';
import { MEMBER_ADDED } from './organization.events';
import { OrganizationResolver, OrganizationTransitionResolver } from './organization.resolver';

export default defineModule({
  name: 'organizations',
  description: 'Facilities (clinics, hospitals, pharmacies), their status, members and roles, and invitations',
  entities: [Organization, OrganizationMember, OrganizationInvitation],
  resolvers: [
    userFields(OrganizationInvitation, {
      invitedByUser: { id: 'invitedBy' },
      acceptedByUser: { id: 'acceptedBy' },
      revokedByUser: { id: 'revokedBy' },
    }),
    OrganizationResolver,
    OrganizationTransitionResolver,
    OrganizationMembersResolver,
    MemberResolver,
    InvitationResolver,
  ],
  references: { Organization: OrganizationResolver.resolveReference },
  topics: [MEMBER_ADDED],
});
