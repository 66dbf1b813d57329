import { Equals } from 'class-validator';
import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { PageArgs, PageOf } from '../../../shared/model';
import { IsText } from '../../../shared/validation';
import { DataSubjectRequest } from './dsr.entity';

@ArgsType()
export class ErasureArgs {
  @Field(() => ID)
  patientId!: string;

  @Field()
  @IsText(2000)
  reason!: string;

  @Field(() => Boolean, { description: 'Must be true: erasure cannot be undone' })
  @Equals(true, { message: 'must be true: erasure cannot be undone' })
  confirm!: boolean;
}

@ArgsType()
export class DsrListArgs extends PageArgs {
  @Field(() => ID)
  patientId!: string;
}

@ObjectType()
export class DataSubjectRequestPage extends PageOf(DataSubjectRequest) {}
