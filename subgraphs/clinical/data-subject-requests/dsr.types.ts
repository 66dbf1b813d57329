import { Equals } from 'class-validator';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { DataSubjectRequest } from './dsr.entity';

@ArgsType()
export class ErasureArgs {
  @Field(() => ID, { description: 'The patient whose data is erased' })
  patientId!: string;

  @Field({ description: 'Why, up to 2000 characters (kept with the request)' })
  @IsText(2000)
  reason!: string;

  @Field(() => Boolean, { description: 'Must be true: erasure cannot be undone' })
  @Equals(true, { message: 'must be true: erasure cannot be undone' })
  confirm!: boolean;
}

@ArgsType()
export class DsrListArgs extends PageArgs {
  @Field(() => ID, { description: 'The patient' })
  patientId!: string;
}

@ObjectType()
export class DataSubjectRequestPage extends PageOf(DataSubjectRequest) {}
