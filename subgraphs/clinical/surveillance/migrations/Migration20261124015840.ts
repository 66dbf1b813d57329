import { Migration } from '@mikro-orm/migrations';

export class Migration20261124015840 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."surveillance_alerts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "syndrome_code" text not null, "organization_id" uuid not null, "date" date not null, "algorithm" text check ("algorithm" in ('c1', 'c2', 'c3')) not null, "observed" int not null, "baseline_start" date not null, "baseline_end" date not null, "baseline_mean" double precision not null, "baseline_sd" double precision not null, "sigma" double precision not null, "statistic" double precision not null, "threshold" double precision not null, "upper_bound" double precision not null, constraint "surveillance_alerts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "surveillance_alerts_date_index" on "clinical"."surveillance_alerts" ("date");`);
    this.addSql(
      `alter table "clinical"."surveillance_alerts" add constraint "surveillance_alerts_organization_id_syndrome_code_e7a85_unique" unique ("organization_id", "syndrome_code", "date", "algorithm");`,
    );

    this.addSql(
      `create table "clinical"."syndrome_daily_counts" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "syndrome_code" text not null, "organization_id" uuid not null, "date" date not null, "count" int not null, "encounters" int not null, "cases" int not null, constraint "syndrome_daily_counts_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "syndrome_daily_counts_date_index" on "clinical"."syndrome_daily_counts" ("date");`);
    this.addSql(
      `alter table "clinical"."syndrome_daily_counts" add constraint "syndrome_daily_counts_organization_id_syndrome_code_date_unique" unique ("organization_id", "syndrome_code", "date");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."surveillance_alerts" cascade;`);

    this.addSql(`drop table if exists "clinical"."syndrome_daily_counts" cascade;`);
  }
}
