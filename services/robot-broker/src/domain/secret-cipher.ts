import crypto from 'node:crypto';

// Robot client secrets at rest (§9.2): AES-256-GCM, so they stay recoverable as HMAC keys.

export interface EncryptedSecret {
  iv: string;
  tag: string;
  data: string;
}

export interface SecretCipher {
  encrypt(plain: string): EncryptedSecret;
  decrypt(sealed: EncryptedSecret): string;
}

export function createSecretCipher(hexKey: string): SecretCipher {
  if (!/^[0-9a-fA-F]{64}$/.test(hexKey)) throw new Error('ROBOT_SECRET_ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)');
  const key = Buffer.from(hexKey, 'hex');
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
    },
    decrypt(sealed) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/** 32 random bytes as 64 lowercase hex characters (§9.2). */
export function newClientSecret(): string {
  return crypto.randomBytes(32).toString('hex');
}
