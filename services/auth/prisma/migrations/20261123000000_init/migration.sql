-- Auth service: roles, users, permissions, sessions, outbox.

CREATE TABLE "roles" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "icon" TEXT NOT NULL DEFAULT 'supervised_user_circle',
    "description" TEXT,
    "admin_access" BOOLEAN NOT NULL DEFAULT false,
    "app_access" BOOLEAN NOT NULL DEFAULT true,
    "enforce_tfa" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "roles_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "email" TEXT,
    "password" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "role_id" UUID,
    "title" TEXT,
    "description" TEXT,
    "language" TEXT,
    "provider" TEXT NOT NULL DEFAULT 'default',
    "external_identifier" TEXT,
    "tfa_secret" TEXT,
    "last_access" TIMESTAMPTZ(3),
    "failed_login_attempts" INTEGER NOT NULL DEFAULT 0,
    "lock_count" INTEGER NOT NULL DEFAULT 0,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "users_status_check" CHECK ("status" IN ('active', 'invited', 'suspended', 'archived'))
);
CREATE UNIQUE INDEX "users_email_lower_key" ON "users"(lower("email"));
CREATE UNIQUE INDEX "users_provider_external_identifier_key" ON "users"("provider", "external_identifier");
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "permissions" (
    "id" SERIAL NOT NULL,
    "role_id" UUID,
    "collection" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "permissions" JSONB,
    "validation" JSONB,
    "presets" JSONB,
    CONSTRAINT "permissions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "permissions_action_check" CHECK ("action" IN ('create', 'read', 'update', 'delete'))
);
CREATE INDEX "permissions_role_id_idx" ON "permissions"("role_id");
ALTER TABLE "permissions" ADD CONSTRAINT "permissions_role_id_fkey" FOREIGN KEY ("role_id") REFERENCES "roles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "origin" TEXT,
    "family_id" UUID NOT NULL,
    "family_created_at" TIMESTAMPTZ(3) NOT NULL,
    "predecessor_id" UUID,
    "successor_id" UUID,
    "rotated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");
CREATE INDEX "sessions_family_id_idx" ON "sessions"("family_id");
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The transactional outbox (@vellum/outbox OUTBOX_TABLE_SQL).
CREATE TABLE "outbox" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "destination" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSONB,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_seq_key" ON "outbox"("seq");
CREATE INDEX "outbox_unpublished_idx" ON "outbox"("seq") WHERE "published_at" IS NULL;
CREATE FUNCTION "outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vellum_outbox', '');
  RETURN NULL;
END $$;
CREATE TRIGGER "outbox_notify" AFTER INSERT ON "outbox" FOR EACH STATEMENT EXECUTE FUNCTION "outbox_notify"();
