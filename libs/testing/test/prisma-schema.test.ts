import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, diffDatabaseAgainstPrismaSchema, parsePrismaSchema } from '../src';

const SCHEMA = `
model Thing {
  id        String   @id @db.Uuid
  name      String   @map("display_name")
  tags      String[]
  createdAt DateTime @default(now()) @map("created_at") @db.Timestamptz(3)
  note      String?
  owner     Owner?   @relation(fields: [ownerId], references: [id])
  ownerId   Int?     @map("owner_id")

  @@index([ownerId, createdAt])
  @@map("things")
}
`;

describe('Prisma schema vs database', () => {
  it('parses columns, maps and indexes', () => {
    const t = parsePrismaSchema(SCHEMA).get('things')!;
    expect([...t.columns.keys()]).toEqual(['id', 'display_name', 'tags', 'created_at', 'note', 'owner_id']);
    expect(t.columns.get('created_at')).toEqual({ type: 'DateTime', optional: false, list: false, native: 'Timestamptz' });
    expect(t.indexes).toEqual([
      { columns: ['id'], unique: true },
      { columns: ['owner_id', 'created_at'], unique: false },
    ]);
  });

  it('finds no difference when the migration matches, and names each one when it does not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'prisma-diff-'));
    const schemaPath = path.join(dir, 'schema.prisma');
    writeFileSync(schemaPath, SCHEMA);
    mkdirSync(path.join(dir, 'm', '20260101000000_init'), { recursive: true });
    writeFileSync(
      path.join(dir, 'm', '20260101000000_init', 'migration.sql'),
      `CREATE TABLE things (id uuid PRIMARY KEY, display_name text NOT NULL, tags text[], created_at timestamptz(3) NOT NULL DEFAULT now(),
         note text, owner_id integer);
       CREATE INDEX things_owner_created ON things (owner_id, created_at);`,
    );
    const good = await createTestDatabase({ migrationsDir: path.join(dir, 'm') });
    try {
      expect(await diffDatabaseAgainstPrismaSchema(good.url, schemaPath)).toEqual([]);
    } finally {
      await good.drop();
    }
    mkdirSync(path.join(dir, 'bad', '20260101000000_init'), { recursive: true });
    writeFileSync(
      path.join(dir, 'bad', '20260101000000_init', 'migration.sql'),
      `CREATE TABLE things (id uuid PRIMARY KEY, display_name varchar(10), tags text[], created_at timestamp NOT NULL, extra int, owner_id integer);`,
    );
    const bad = await createTestDatabase({ migrationsDir: path.join(dir, 'bad') });
    try {
      expect(await diffDatabaseAgainstPrismaSchema(bad.url, schemaPath)).toEqual([
        'things.extra: in the database, not in schema.prisma',
        'things.display_name: type varchar, schema.prisma says text',
        'things.display_name: nullable, schema.prisma says required',
        'things.created_at: type timestamp, schema.prisma says timestamptz',
        'things.note: in schema.prisma, not in the database',
        'things: no btree index on (owner_id, created_at) declared in schema.prisma',
      ]);
    } finally {
      await bad.drop();
    }
  });
});
