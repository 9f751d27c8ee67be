import { RobotIn, RobotUpdateIn, uuidv7, validate, type ProvisionedRobot, type Robot, type RobotEntitlement } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, isDuplicateKeyError, type RobotDocument } from '../data-access/collections';
import { newClientSecret, type SecretCipher } from '../domain/secret-cipher';

// Robot registry (§9): register, read, list, update, cycle the secret.

export interface CallerView {
  entitlements: string[];
}

export const ENTITLEMENT_WRITER_DETAIL = 'Changing robot entitlements requires the robot.entitlement.writer scope or role.';

export function robotView(robot: RobotDocument): Robot {
  const view: Robot = { name: robot.name, description: robot.description, owner: robot.owner, entitlements: robot.entitlements, id: robot._id };
  if (robot.base_url) view.base_url = robot.base_url;
  return view;
}

function parseBody<T>(schema: Parameters<typeof validate>[0], json: string): T {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: json }]);
  }
  const result = validate(schema, value, 'body');
  if (!result.ok) throw ServiceError.unprocessable(result.errors);
  return result.value as T;
}

function nameClash(name: string): ServiceError {
  return ServiceError.conflict(`Unable to perform operation on Robot. Violation: Key (name)=(${name}) already exists.`);
}

const sameSet = (a: readonly string[], b: readonly string[]) => new Set(a).size === new Set(b).size && a.every((value) => b.includes(value));

export function createRobotUsecases(deps: { db: Db; cipher: SecretCipher }) {
  const robots: Collection<RobotDocument> = deps.db.collection(COLLECTIONS.robots);
  const mayWriteEntitlements = (caller: CallerView) => caller.entitlements.includes('robot_entitlement_writer');

  async function load(id: string): Promise<RobotDocument> {
    const robot = await robots.findOne({ _id: id });
    if (!robot) throw ServiceError.notFound('Robot', id);
    return robot;
  }

  function provisioned(robot: RobotDocument, secret: string): ProvisionedRobot {
    return { ...robotView(robot), client_secret: secret };
  }

  return {
    async register(caller: CallerView, json: string): Promise<ProvisionedRobot> {
      const body = parseBody<RobotIn>(RobotIn, json);
      const entitlements = [...new Set(body.entitlements ?? [])] as RobotEntitlement[];
      if (entitlements.length > 0 && !mayWriteEntitlements(caller)) throw new ServiceError(403, ENTITLEMENT_WRITER_DETAIL);
      const secret = newClientSecret();
      const robot: RobotDocument = {
        _id: uuidv7(),
        name: body.name,
        description: body.description,
        owner: body.owner,
        entitlements,
        base_url: body.base_url ?? null,
        secret: deps.cipher.encrypt(secret),
        created_at: new Date(),
      };
      try {
        await robots.insertOne(robot);
      } catch (error) {
        if (isDuplicateKeyError(error)) throw nameClash(body.name);
        throw error;
      }
      return provisioned(robot, secret);
    },

    async get(id: string): Promise<Robot> {
      return robotView(await load(id));
    },

    async list(): Promise<Robot[]> {
      return (await robots.find({}).sort({ _id: 1 }).toArray()).map(robotView);
    },

    async update(caller: CallerView, id: string, json: string): Promise<Robot> {
      const body = parseBody<RobotUpdateIn>(RobotUpdateIn, json);
      if (body.id !== undefined && body.id !== id) {
        throw ServiceError.unprocessable([{ type: 'value_error', loc: ['body', 'id'], msg: 'Value error, id must equal the robot id in the path.', input: body.id }]);
      }
      const current = await load(id);
      const requested = [...new Set(body.entitlements ?? [])] as RobotEntitlement[];
      let entitlements = requested;
      if (!mayWriteEntitlements(caller)) {
        // Without the grant, [] / omitted / the current set all keep the current set (§9.3).
        if (requested.length > 0 && !sameSet(requested, current.entitlements)) throw new ServiceError(403, ENTITLEMENT_WRITER_DETAIL);
        entitlements = current.entitlements;
      }
      const changes = { name: body.name, description: body.description, owner: body.owner, entitlements, base_url: body.base_url ?? null };
      try {
        await robots.updateOne({ _id: id }, { $set: changes });
      } catch (error) {
        if (isDuplicateKeyError(error)) throw nameClash(body.name);
        throw error;
      }
      return robotView({ ...current, ...changes });
    },

    async cycleSecret(id: string): Promise<ProvisionedRobot> {
      const current = await load(id);
      const secret = newClientSecret();
      const sealed = deps.cipher.encrypt(secret);
      await robots.updateOne({ _id: id }, { $set: { secret: sealed } });
      return provisioned({ ...current, secret: sealed }, secret);
    },
  };
}

export type RobotUsecases = ReturnType<typeof createRobotUsecases>;
