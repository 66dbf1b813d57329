import { Migration } from '@mikro-orm/migrations';

export class Migration20261124021242 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "org"."training_assessments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "course_id" uuid null, "title" text not null, "passing_score" int not null, "questions" jsonb not null, "created_by" uuid null, constraint "training_assessments_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "training_assessments_organization_id_created_at_index" on "org"."training_assessments" ("organization_id", "created_at");`,
    );

    this.addSql(
      `create table "org"."training_assessment_attempts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "assessment_id" uuid not null, "user_id" uuid not null, "answers" jsonb not null, "correct_count" int not null, "question_count" int not null, "score" double precision not null, "passed" boolean not null, constraint "training_assessment_attempts_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "training_assessment_attempts_assessment_id_user_id_index" on "org"."training_assessment_attempts" ("assessment_id", "user_id");`,
    );

    this.addSql(
      `create table "org"."training_cme_credits" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "user_id" uuid not null, "credits" double precision not null, "category" text check ("category" in ('category_1', 'category_2')) not null, "activity" text not null, "provider" text null, "activity_date" date not null, "source" text check ("source" in ('course_completion', 'award')) not null, "enrollment_id" uuid null, "reference" text null, "awarded_by" uuid null, constraint "training_cme_credits_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create unique index "training_cme_credits_reference_unique" on "org"."training_cme_credits" ("user_id", lower("reference")) where "reference" is not null;`,
    );
    this.addSql(
      `create unique index "training_cme_credits_enrollment_unique" on "org"."training_cme_credits" ("enrollment_id") where "enrollment_id" is not null;`,
    );
    this.addSql(
      `create index "training_cme_credits_organization_id_activity_date_index" on "org"."training_cme_credits" ("organization_id", "activity_date");`,
    );
    this.addSql(
      `create index "training_cme_credits_user_id_activity_date_index" on "org"."training_cme_credits" ("user_id", "activity_date");`,
    );

    this.addSql(
      `create table "org"."training_courses" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "title" text not null, "provider" text not null, "description" text null, "modules" jsonb not null, "cme_credits" double precision not null, "cme_category" text check ("cme_category" in ('category_1', 'category_2')) not null, "created_by" uuid null, constraint "training_courses_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "training_courses_organization_id_created_at_index" on "org"."training_courses" ("organization_id", "created_at");`,
    );

    this.addSql(
      `create table "org"."training_enrollments" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "course_id" uuid not null, "user_id" uuid not null, "status" text check ("status" in ('enrolled', 'in_progress', 'completed')) not null default 'enrolled', "progress" int not null default 0, "enrolled_by" uuid not null, "completed_at" timestamptz null, "cme_credit_id" uuid null, constraint "training_enrollments_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "training_enrollments_organization_id_created_at_index" on "org"."training_enrollments" ("organization_id", "created_at");`,
    );
    this.addSql(
      `alter table "org"."training_enrollments" add constraint "training_enrollments_course_id_user_id_unique" unique ("course_id", "user_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "org"."training_assessments" cascade;`);

    this.addSql(`drop table if exists "org"."training_assessment_attempts" cascade;`);

    this.addSql(`drop table if exists "org"."training_cme_credits" cascade;`);

    this.addSql(`drop table if exists "org"."training_courses" cascade;`);

    this.addSql(`drop table if exists "org"."training_enrollments" cascade;`);
  }
}
