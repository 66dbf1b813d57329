import { AuditEvent } from '../../shared/audit/audit-event.entity';
import { flushAudit } from '../../shared/audit/audit-trail';
import { OutboxEvent, ProcessedEvent } from '../../shared/outbox';
import type { SubgraphDefinition } from '../../shared/subgraph';
import { AdminResolver } from './admin/admin.resolver';
import { ApiKey, ApiKeySecret } from './api-keys/api-key.entity';
import { ApiKeyResolver } from './api-keys/api-key.resolver';
import { DeadLetter, WebhookDelivery } from './bus/bus.entities';
import { BusResolver } from './bus/bus.resolver';
import { doctorOrganizations, doctorProfiles } from './doctors/doctor.consumers';
import { DoctorOrganization, DoctorProfile } from './doctors/doctor.entity';
import { DoctorResolver } from './doctors/doctor.resolver';
import { billingWebhooks, formLeads, mailerWebhooks, messagingWebhooks } from './inbound/inbound.consumers';
import { Lead, MailEvent, MessagingMessage, MessagingReceipt, SentMail } from './inbound/inbound.entities';
import { ConversationMessageResolver, ConversationResolver } from './conversations/conversation.resolver';
import { Conversation, ConversationMessage, ConversationParticipant } from './conversations/conversation.entity';
import { Admission, AdmissionTransfer, Room } from './facilities/facility.entity';
import { AdmissionResolver, RoomResolver } from './facilities/facility.resolver';
import { migrations } from './migrations';
import { videoWebhooks } from './telemedicine/telemedicine.consumers';
import { VideoParticipant, VideoSession } from './telemedicine/telemedicine.entity';
import { TelemedicineResolver } from './telemedicine/telemedicine.resolver';
import { OrganizationInvitation } from './organizations/invitation.entity';
import { InvitationResolver } from './organizations/invitation.resolver';
import { MemberResolver, OrganizationMembersResolver } from './organizations/member.resolver';
import { Organization, OrganizationMember } from './organizations/organization.entity';
import { OrganizationResolver } from './organizations/organization.resolver';
import { AttendanceEntry } from './staff/attendance.entity';
import { AttendanceResolver } from './staff/attendance.resolver';
import { LeaveRequest } from './staff/leave.entity';
import { LeaveResolver } from './staff/leave.resolver';
import { appointmentNotifications } from './scheduling/appointment.consumers';
import { AppointmentRequest } from './scheduling/appointment-request.entity';
import { Appointment } from './scheduling/appointment.entity';
import { AppointmentRequestResolver, AppointmentResolver } from './scheduling/appointment.resolver';
import { ResourceResolver, ScheduleResolver } from './scheduling/resource.resolver';
import { SchedulableResource, Schedule } from './scheduling/resource.entity';
import { AuthResolver } from './users/auth.resolver';
import { ensureBootstrapAdmin } from './users/auth.service';
import { SecurityEvent } from './security/security-event.entity';
import { Session } from './users/session.entity';
import { RecoveryCode, UserIdentity, UserToken } from './users/user-token.entity';
import { User } from './users/user.entity';

/**
 * Identity and organizations: users, sessions, MFA, API keys, security audit, organizations, their members and
 * invitations, rooms, admissions, conversations, staff attendance and leave, doctors, scheduling (resources,
 * schedules, appointments, requests) and telemedicine.
 */
export const orgSubgraph: SubgraphDefinition = {
  name: 'org',
  entities: [
    User,
    Session,
    UserToken,
    RecoveryCode,
    UserIdentity,
    Organization,
    OrganizationMember,
    OrganizationInvitation,
    AttendanceEntry,
    LeaveRequest,
    ApiKey,
    ApiKeySecret,
    SecurityEvent,
    DoctorProfile,
    DoctorOrganization,
    DeadLetter,
    WebhookDelivery,
    MessagingMessage,
    MessagingReceipt,
    SentMail,
    MailEvent,
    Lead,
    Room,
    Admission,
    AdmissionTransfer,
    Conversation,
    ConversationParticipant,
    ConversationMessage,
    SchedulableResource,
    Schedule,
    Appointment,
    AppointmentRequest,
    VideoSession,
    VideoParticipant,
    AuditEvent,
    OutboxEvent,
    ProcessedEvent,
  ],
  migrations,
  resolvers: [
    AuthResolver,
    OrganizationResolver,
    ApiKeyResolver,
    AdminResolver,
    BusResolver,
    RoomResolver,
    AdmissionResolver,
    ConversationResolver,
    ConversationMessageResolver,
    OrganizationMembersResolver,
    MemberResolver,
    InvitationResolver,
    AttendanceResolver,
    LeaveResolver,
    DoctorResolver,
    ResourceResolver,
    ScheduleResolver,
    AppointmentResolver,
    AppointmentRequestResolver,
    TelemedicineResolver,
  ],
  consumers: [
    doctorProfiles,
    doctorOrganizations,
    billingWebhooks,
    messagingWebhooks,
    mailerWebhooks,
    formLeads,
    appointmentNotifications,
    videoWebhooks,
  ],
  references: {
    Organization: OrganizationResolver.resolveReference,
    Doctor: DoctorResolver.resolveReference,
    Appointment: AppointmentResolver.resolveReference,
  },
  onStart: (runtime) => ensureBootstrapAdmin(runtime.orm.em.fork()),
  onStop: (runtime) => flushAudit(runtime.orm.em),
};
