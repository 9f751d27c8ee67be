import { canonicalUuid, ROBOT_AUTH_DETAILS, unknownRobotClientDetail, verifyRobotSignature } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type RobotDocument } from '../data-access/collections';
import type { SecretCipher } from '../domain/secret-cipher';

// §4.4 checks 7–8 (the gateway ran 1–6). The robot is read on every call (one _id lookup), so a
// cycled secret stops working at once on every replica; only the decryption is cached, keyed by
// the sealed value it came from.

export interface VerifyRobotSignatureInput {
  authorization: string;
  client_id: string;
  request_timestamp: string;
  body: Buffer;
}

export interface VerifiedCaller {
  subject: string;
  roles: string[];
  entitlements: string[];
  robot_id: string;
}

export function createVerifyRobotSignature(deps: { db: Db; cipher: SecretCipher }) {
  const robots: Collection<RobotDocument> = deps.db.collection(COLLECTIONS.robots);
  const decrypted = new Map<string, { sealed: string; secret: string }>();

  async function credentials(id: string): Promise<{ secret: string; entitlements: string[] } | null> {
    const robot = await robots.findOne({ _id: id }, { projection: { secret: 1, entitlements: 1 } });
    if (!robot) {
      decrypted.delete(id);
      return null;
    }
    let entry = decrypted.get(id);
    if (!entry || entry.sealed !== robot.secret.data) {
      entry = { sealed: robot.secret.data, secret: deps.cipher.decrypt(robot.secret) };
      decrypted.set(id, entry);
    }
    return { secret: entry.secret, entitlements: robot.entitlements };
  }

  return {
    async verify(input: VerifyRobotSignatureInput): Promise<VerifiedCaller> {
      const clientId = canonicalUuid(input.client_id);
      if (clientId === null) throw new ServiceError(401, ROBOT_AUTH_DETAILS.clientIdInvalid);
      const robot = await credentials(clientId);
      if (!robot) throw new ServiceError(401, unknownRobotClientDetail(clientId));
      const space = input.authorization.indexOf(' ');
      const signature = space === -1 ? '' : input.authorization.slice(space + 1).trim();
      const valid = verifyRobotSignature({ secret: robot.secret, clientId, timestampHeader: input.request_timestamp, body: input.body, signature });
      if (!valid) throw new ServiceError(401, ROBOT_AUTH_DETAILS.signatureInvalid);
      return { subject: clientId, roles: [], entitlements: robot.entitlements, robot_id: clientId };
    },
  };
}
