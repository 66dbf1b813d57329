import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Max, Min } from 'class-validator';
import { PageArgs, PageOf } from '../../../shared/model';
import { LocalDate } from '../../../shared/scalars';
import { IsCalendarDate, IsCountryCode, IsInRange, IsPhone, IsText } from '../../../shared/validation';
import { Gender, Patient } from '../patients/patient.entity';
import { MatchContribution, PatientLink, PatientLinkStatus } from './mpi.entity';

/** Demographics to match: a patient's id, or the fields themselves (first and last name and birth date at least). */
@InputType({ description: "Demographics to find matching patients for: an existing patient's id, or the fields" })
export class MatchPatientsInput {
  @Field(() => ID, { nullable: true, description: "Match this patient's record (the other fields are then ignored)" })
  patientId?: string;

  @Field({ nullable: true, description: 'Given name(s)' })
  @IsText(100)
  firstName?: string;

  @Field({ nullable: true, description: 'Family name' })
  @IsText(100)
  lastName?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Birth date, YYYY-MM-DD' })
  @IsCalendarDate({ notFuture: true })
  dateOfBirth?: string;

  @Field(() => Gender, { nullable: true, description: 'REST also takes the value in any letter case' })
  gender?: Gender;

  @Field({ nullable: true, description: 'Phone in international format, such as +254712345678' })
  @IsPhone()
  phone?: string;

  @Field({ nullable: true, description: 'National identity number; needs nationalIdCountry' })
  @IsText(50)
  nationalId?: string;

  @Field({ nullable: true, description: 'ISO 3166-1 alpha-2 code of the country that issued nationalId' })
  @IsCountryCode()
  nationalIdCountry?: string;

  @Field(() => Float, { nullable: true, description: 'Lowest score to answer, 0 to 1; the review threshold when omitted' })
  @IsInRange(0, 1)
  minScore?: number;

  @Field(() => Int, { nullable: true, description: 'Most candidates to answer, 1 to 100 (default 10)' })
  @Min(1)
  @Max(100)
  limit?: number;
}

export enum MatchClassification {
  auto_link = 'auto_link',
  review = 'review',
  none = 'none',
}
registerEnumType(MatchClassification, {
  name: 'MatchClassification',
  description: 'What the score suggests: link without a person (auto_link), a person reviews (review), or nothing (none)',
});

@ObjectType('MatchCandidate', { description: 'A patient record that may be the same person, with its score' })
export class MatchCandidate {
  @Field(() => ID)
  patientId!: string;

  @Field(() => Patient, { description: 'The candidate record' })
  patient!: Patient;

  @Field(() => Float, { description: 'Match score in [0, 1]' })
  score!: number;

  @Field(() => MatchClassification, { description: 'Where the score falls against the two thresholds' })
  classification!: MatchClassification;

  @Field(() => [MatchContribution], { description: "Each field's part in the score" })
  contributions!: MatchContribution[];

  @Field({ description: 'The records share an identifier (national id, phone, or organization and MRN)' })
  identifierAgrees!: boolean;

  @Field({ description: 'Possibly twins: same birth date and family name, different given names' })
  twinSuspected!: boolean;

  @Field(() => PatientLink, {
    nullable: true,
    description: 'The link or candidate already recorded for this pair, when matching a patient',
  })
  link?: PatientLink | null;
}

@ObjectType('MatchResult', { description: 'Candidates for a set of demographics, best first' })
export class MatchResult {
  @Field(() => [MatchCandidate], { description: 'At most `limit` candidates at or above `minScore`, best first' })
  candidates!: MatchCandidate[];

  @Field(() => Float, { description: 'Score at or above which a pair may be linked without a person' })
  autoLinkThreshold!: number;

  @Field(() => Float, { description: 'Score at or above which a pair waits for review' })
  reviewThreshold!: number;

  @Field(() => Int, { description: 'How many indexed records the blocking keys brought up for scoring' })
  compared!: number;
}

@InputType({ description: 'Two patient records to link, and why' })
export class LinkPatientsInput {
  @Field(() => ID)
  patientId!: string;

  @Field(() => ID, { description: 'The other record; never the same patient' })
  linkedPatientId!: string;

  @Field({ nullable: true, description: 'Why (kept in the history)' })
  @IsText(1000)
  reason?: string;
}

export enum ReviewDecision {
  approve = 'approve',
  reject = 'reject',
}
registerEnumType(ReviewDecision, { name: 'ReviewDecision', description: 'approve: the same person (linked); reject: different people' });

@InputType({ description: "A reviewer's decision on a match candidate" })
export class ReviewPatientLinkInput {
  @Field(() => ReviewDecision)
  decision!: ReviewDecision;

  @Field({ nullable: true, description: 'Why; required to reject' })
  @IsText(1000)
  reason?: string;
}

@InputType({ description: 'Why a link is undone' })
export class UnlinkPatientsInput {
  @Field({ description: 'Why (kept in the history)' })
  @IsText(1000)
  reason!: string;
}

@ArgsType()
export class PatientMatchListArgs extends PageArgs {
  @Field(() => PatientLinkStatus, { nullable: true, description: 'Only links in this status' })
  status?: PatientLinkStatus;

  @Field(() => ID, { nullable: true, description: 'Only links involving this patient' })
  patientId?: string;
}

@ObjectType()
export class PatientLinkPage extends PageOf(PatientLink) {}
