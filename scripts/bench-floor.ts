/**
 * The benchmark's floor: the least any server can do for `GET /api/patients/:id` — Express and a pg pool reading
 * the same row by primary key, no authentication, no GraphQL. Used only by `npm run bench`.
 */
import express from 'express';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 10) });
const app = express();
app.get('/api/patients/:id', async (req, res) => {
  const { rows } = await pool.query(
    `select id, first_name, last_name, to_char(date_of_birth, 'YYYY-MM-DD') as date_of_birth, gender, phone, email,
            mrn, organization_id, user_id, created_by, created_at, updated_at
       from clinical.patients where id = $1`,
    [req.params.id],
  );
  if (!rows.length) return res.status(404).json({ success: false, error: { code: 'NOT_FOUND', message: 'Patient not found' } });
  res.json({ success: true, data: rows[0] });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
