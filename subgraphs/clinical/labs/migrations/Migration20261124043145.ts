import { Migration } from '@mikro-orm/migrations';

/**
 * Lab messages keyed by sender (MSH-3, MSH-4) and control id (MSH-10) with their content hash; results get their
 * message, the time it was received (one per message, for listing a message's results together), OBX-4, NTE
 * comments, alternate codes and embedded documents. Existing results stay valid: no message (lab_message_id null,
 * compared by content on redelivery), received_at taken from the first result of their message.
 */
export class Migration20261124043145 extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "clinical"."lab_messages" ("id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "organization_id" uuid not null, "patient_id" uuid not null, "sending_application" text not null, "sending_facility" text not null, "message_control_id" text not null, "content_hash" text not null, "acknowledgment_code" text not null, "reason" text null, "problems" jsonb not null, "lab_order_ids" jsonb not null, "result_ids" jsonb not null, constraint "lab_messages_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "clinical"."lab_messages" add constraint "lab_messages_organization_id_sending_application__50c91_unique" unique ("organization_id", "sending_application", "sending_facility", "message_control_id");`,
    );

    this.addSql(`alter table "clinical"."lab_orders" add column "lab_comment" text null;`);

    this.addSql(`alter table "clinical"."lab_results" drop constraint "lab_results_organization_id_message_control_id_sequence_unique";`);

    this.addSql(
      `alter table "clinical"."lab_results" add column "lab_message_id" uuid null, add column "received_at" timestamptz null, add column "sub_id" text null, add column "alternate_code" text null, add column "alternate_code_system" text null, add column "comment" text null, add column "document_key" text null, add column "document_content_type" text null, add column "document_size" int null, add column "document_sha256" text null;`,
    );
    this.addSql(
      `update "clinical"."lab_results" r set "received_at" = m."first" from (select "organization_id", "message_control_id", min("created_at") as "first" from "clinical"."lab_results" group by "organization_id", "message_control_id") m where r."organization_id" = m."organization_id" and r."message_control_id" = m."message_control_id";`,
    );
    this.addSql(`update "clinical"."lab_results" set "received_at" = "created_at" where "received_at" is null;`);
    this.addSql(`alter table "clinical"."lab_results" alter column "received_at" set not null;`);
    this.addSql(`create index "lab_results_patient_id_received_at_index" on "clinical"."lab_results" ("patient_id", "received_at");`);
    this.addSql(
      `alter table "clinical"."lab_results" add constraint "lab_results_lab_message_id_sequence_unique" unique ("lab_message_id", "sequence");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "clinical"."lab_messages" cascade;`);

    this.addSql(`alter table "clinical"."lab_orders" drop column "lab_comment";`);

    this.addSql(`drop index "clinical"."lab_results_patient_id_received_at_index";`);
    this.addSql(`alter table "clinical"."lab_results" drop constraint "lab_results_lab_message_id_sequence_unique";`);
    this.addSql(
      `alter table "clinical"."lab_results" drop column "lab_message_id", drop column "received_at", drop column "sub_id", drop column "alternate_code", drop column "alternate_code_system", drop column "comment", drop column "document_key", drop column "document_content_type", drop column "document_size", drop column "document_sha256";`,
    );

    this.addSql(
      `alter table "clinical"."lab_results" add constraint "lab_results_organization_id_message_control_id_sequence_unique" unique ("organization_id", "message_control_id", "sequence");`,
    );
  }
}
