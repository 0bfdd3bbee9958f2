-- Buckets with a maximum age (the mailer's sent-job ids: EMAIL_SENT_IDS_TTL) are pruned by age and loaded oldest
-- first: both walk this index.
CREATE INDEX "key_value_bucket_updated_at_idx" ON "key_value" ("bucket", "updated_at");
