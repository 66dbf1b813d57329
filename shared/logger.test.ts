import { serializeError } from './logger';

describe('the log', () => {
  it('keeps a database error without its SQL, bound values or PostgreSQL detail', () => {
    const err = Object.assign(
      new Error(
        `insert into "clinical"."patients" ("first_name", "date_of_birth") values ('Amina', '1988-06-15') - duplicate key value violates unique constraint "patients_email_unique"`,
      ),
      {
        name: 'UniqueConstraintViolationException',
        code: '23505',
        detail: 'Key (email)=(amina@example.test) already exists.',
        constraint: 'patients_email_unique',
      },
    );
    const logged = JSON.stringify(serializeError(err));
    expect(logged).not.toMatch(/Amina|1988-06-15|amina@example\.test|insert into/);
    expect(serializeError(err)).toMatchObject({
      message: 'duplicate key value violates unique constraint "patients_email_unique"',
      code: '23505',
      constraint: 'patients_email_unique',
    });
  });

  it('leaves other errors as they are', () => {
    expect(serializeError(new Error('boom - with a dash'))).toMatchObject({ message: 'boom - with a dash' });
  });
});
