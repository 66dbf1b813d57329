import { Arg, Args, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { PageArgs } from '../../../shared/model';
import { Public } from '../../../shared/public';
import type { SubgraphContext } from '../../../shared/subgraph';
import { PayloadMutation } from '../../../shared/user-errors';
import { DoctorProfile } from '../doctors/doctor.entity';
import { DoctorService } from '../doctors/doctor.service';
import { AvailabilityService } from './availability.service';
import { SchedulableResource, Schedule } from './resource.entity';
import { ResourceService } from './resource.service';
import {
  AvailabilityArgs,
  CreateResourceInput,
  CreateResourcePayload,
  CreateScheduleInput,
  CreateSchedulePayload,
  DoctorAvailability,
  DoctorAvailabilityArgs,
  ResourceAvailability,
  ResourceListArgs,
  SchedulableResourcePage,
  SchedulePage,
  UpdateResourceInput,
  UpdateResourcePayload,
  UpdateScheduleInput,
  UpdateSchedulePayload,
} from './resource.types';
import { ScheduleService } from './schedule.service';

@Resolver(() => SchedulableResource)
export class ResourceResolver {
  private readonly service = new ResourceService();
  private readonly availability = new AvailabilityService();
  private readonly doctors = new DoctorService();

  @FieldResolver(() => DoctorProfile, {
    nullable: true,
    description: 'The doctor of a doctor resource, under the rule of doctor(id); null otherwise',
  })
  doctor(@Root() resource: SchedulableResource, @Ctx() ctx: SubgraphContext) {
    return resource.doctorId ? this.doctors.reference(ctx, resource.doctorId) : null;
  }

  @Public()
  @Query(() => SchedulableResourcePage, {
    description: 'Schedulable resources: active ones of active organizations for anyone, all of their own to members',
  })
  resources(@Args() args: ResourceListArgs, @Ctx() ctx: SubgraphContext) {
    return this.service.list(ctx, args);
  }

  @Public()
  @Query(() => SchedulableResource, {
    nullable: true,
    description: 'A schedulable resource (a doctor, a room, equipment); public; NOT_FOUND when missing',
  })
  resource(@Arg('id', () => ID, { description: 'The resource' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(CreateResourcePayload, {
    description: 'Create a schedulable resource (scheduling:write); a bad field (a room or doctor not of the organization) is a user error',
  })
  createResource(
    @Arg('input', { description: 'The fields of the new schedulable resource' }) input: CreateResourceInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.create(ctx, input);
  }

  @PayloadMutation(UpdateResourcePayload, {
    description: 'Change a schedulable resource (scheduling:write); a bad field (a room or doctor not of the organization) is a user error',
  })
  updateResource(
    @Arg('id', () => ID, { description: 'The resource' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateResourceInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => SchedulableResource, { description: 'Delete a resource and its schedules; 409 while appointments are to come' })
  deleteResource(@Arg('id', () => ID, { description: 'The schedulable resource' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }

  @Public()
  @Query(() => ResourceAvailability, { nullable: true, description: "A resource's slots on a date of its time zone (public)" })
  resourceAvailability(@Args() args: AvailabilityArgs, @Ctx() ctx: SubgraphContext) {
    return this.availability.forResource(ctx, args);
  }

  @Public()
  @Query(() => DoctorAvailability, { nullable: true, description: "An approved doctor's free slots per day (public)" })
  doctorAvailability(@Args() args: DoctorAvailabilityArgs, @Ctx() ctx: SubgraphContext) {
    return this.availability.forDoctor(ctx, args);
  }
}

@Resolver(() => Schedule)
export class ScheduleResolver {
  private readonly service = new ScheduleService();
  private readonly resources = new ResourceService();

  @Public()
  @Query(() => SchedulePage, { description: "A resource's schedules" })
  resourceSchedules(
    @Arg('resourceId', () => ID, { description: 'The resource' }) resourceId: string,
    @Args() args: PageArgs,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.listForResource(ctx, resourceId, args);
  }

  @Public()
  @Query(() => Schedule, { nullable: true, description: "A resource's working hours; public; NOT_FOUND when missing" })
  schedule(@Arg('id', () => ID, { description: 'The schedule' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.get(ctx, id);
  }

  @PayloadMutation(CreateSchedulePayload, {
    description: 'Add working hours to a resource (scheduling:write); a bad field or hours that overlap others are a user error',
  })
  createSchedule(@Arg('input', { description: 'The fields of the new schedule' }) input: CreateScheduleInput, @Ctx() ctx: SubgraphContext) {
    return this.service.create(ctx, input);
  }

  @PayloadMutation(UpdateSchedulePayload, {
    description: "Change a resource's working hours (scheduling:write); a bad field or hours that overlap others are a user error",
  })
  updateSchedule(
    @Arg('id', () => ID, { description: 'The schedule' }) id: string,
    @Arg('input', { description: 'The fields to change; those left out stay' }) input: UpdateScheduleInput,
    @Ctx() ctx: SubgraphContext,
  ) {
    return this.service.update(ctx, id, input);
  }

  @Mutation(() => Schedule, { description: "Delete a resource's working hours (scheduling:write)" })
  deleteSchedule(@Arg('id', () => ID, { description: 'The schedule' }) id: string, @Ctx() ctx: SubgraphContext) {
    return this.service.delete(ctx, id);
  }

  @FieldResolver(() => ID)
  resourceId(@Root() schedule: Schedule): string {
    return schedule.resource.id;
  }

  @FieldResolver(() => SchedulableResource, { description: 'The resource this schedule belongs to' })
  resource(@Root() schedule: Schedule, @Ctx() ctx: SubgraphContext) {
    return this.resources.load(ctx, schedule.resource.id);
  }
}
