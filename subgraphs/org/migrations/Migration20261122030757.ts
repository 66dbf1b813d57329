import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030757 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "org"."doctor_profiles" add column "title" text null, add column "phone" text null, add column "specialty" text null, add column "specialty_key" text null, add column "sub_specialties" text[] not null default '{}', add column "license_number" text null, add column "license_country" text null, add column "license_key" text null, add column "bio" text null, add column "languages" text[] not null default '{}', add column "years_of_experience" int null, add column "consultation_fee" numeric(14,2) null, add column "currency" text null, add column "city" text null, add column "country" text null, add column "verification_reason" text null, add column "verified_at" timestamptz null, add column "verified_by" uuid null;`,
    );
    this.addSql(`create index "doctor_profiles_specialty_key_index" on "org"."doctor_profiles" ("specialty_key");`);
    this.addSql(`alter table "org"."doctor_profiles" add constraint "doctor_profiles_license_key_unique" unique ("license_key");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "org"."doctor_profiles_specialty_key_index";`);
    this.addSql(`alter table "org"."doctor_profiles" drop constraint "doctor_profiles_license_key_unique";`);
    this.addSql(
      `alter table "org"."doctor_profiles" drop column "title", drop column "phone", drop column "specialty", drop column "specialty_key", drop column "sub_specialties", drop column "license_number", drop column "license_country", drop column "license_key", drop column "bio", drop column "languages", drop column "years_of_experience", drop column "consultation_fee", drop column "currency", drop column "city", drop column "country", drop column "verification_reason", drop column "verified_at", drop column "verified_by";`,
    );
  }
}
