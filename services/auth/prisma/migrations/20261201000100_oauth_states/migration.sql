-- OAuth/OpenID login: the state ids already consumed (a callback's state is accepted once), kept until they expire.
CREATE TABLE "oauth_states" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "oauth_states_expires_at_idx" ON "oauth_states"("expires_at");
