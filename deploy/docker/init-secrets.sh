#!/bin/sh
# Creates the docker-compose secrets once (kept on later runs): the first administrator's password, the
# auth service's ES256 signing key and the key encrypting TOTP secrets at rest (its own secret, so that the signing
# key can be rotated without touching enrolled TFA). Read through ADMIN_PASSWORD_FILE, AUTH_PRIVATE_KEY_FILE and
# AUTH_TFA_ENCRYPTION_KEY_FILE (compose mounts them under /run/secrets/).
set -eu
dir="$(cd "$(dirname "$0")" && pwd)/secrets"
mkdir -p "$dir"
if [ ! -s "$dir/admin_password" ]; then
  node -e "process.stdout.write(require('node:crypto').randomBytes(18).toString('base64url'))" > "$dir/admin_password"
  echo "admin password written to $dir/admin_password"
fi
if [ ! -s "$dir/auth_private_key.pem" ]; then
  node -e "const {generateKeyPairSync}=require('node:crypto');process.stdout.write(generateKeyPairSync('ec',{namedCurve:'P-256'}).privateKey.export({format:'pem',type:'pkcs8'}))" > "$dir/auth_private_key.pem"
  echo "ES256 signing key written to $dir/auth_private_key.pem"
fi
if [ ! -s "$dir/auth_tfa_encryption_key" ]; then
  node -e "process.stdout.write(require('node:crypto').randomBytes(32).toString('hex'))" > "$dir/auth_tfa_encryption_key"
  echo "TFA encryption key written to $dir/auth_tfa_encryption_key"
fi
# Compose (without swarm) bind-mounts these files as they are: the containers run as uid 1000 (`node`), so
# the files must be readable by it. They never leave this machine.
chmod 0644 "$dir/admin_password" "$dir/auth_private_key.pem" "$dir/auth_tfa_encryption_key"
