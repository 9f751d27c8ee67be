import { Type, type Static } from '@sinclair/typebox';
import { HttpUrl, Nullable, Uuid } from './common.schema';
import { RobotEntitlement } from './enums.schema';

// Robot models (§9.1). Unknown keys are rejected on all of them (the SDK's robot models forbid
// extras, so responses must not carry any either).

const robotFields = {
  name: Type.String(),
  description: Type.String(),
  owner: Type.String(),
};

export const RobotIn = Type.Object(
  {
    ...robotFields,
    entitlements: Type.Optional(Type.Array(RobotEntitlement, { default: [] })),
    base_url: Type.Optional(Nullable(HttpUrl(), { default: null })),
  },
  { $id: 'RobotIn', additionalProperties: false },
);
export type RobotIn = Static<typeof RobotIn>;

/** `PUT /robots/{robot_id}/` body: RobotIn plus an optional `id` that must equal the path (D5). */
export const RobotUpdateIn = Type.Object(
  {
    ...robotFields,
    entitlements: Type.Optional(Type.Array(RobotEntitlement, { default: [] })),
    base_url: Type.Optional(Nullable(HttpUrl(), { default: null })),
    id: Type.Optional(Uuid()),
  },
  { $id: 'RobotUpdateIn', additionalProperties: false },
);
export type RobotUpdateIn = Static<typeof RobotUpdateIn>;

/** `base_url` appears only when set (D7). */
export const Robot = Type.Object(
  {
    ...robotFields,
    entitlements: Type.Array(RobotEntitlement),
    id: Uuid(),
    base_url: Type.Optional(HttpUrl()),
  },
  { $id: 'Robot', additionalProperties: false },
);
export type Robot = Static<typeof Robot>;

/** 32 random bytes as 64 lowercase hex characters (§9.2). */
export const CLIENT_SECRET_PATTERN = '^[0-9a-f]{64}$';

export const ProvisionedRobot = Type.Object(
  {
    ...robotFields,
    entitlements: Type.Array(RobotEntitlement),
    id: Uuid(),
    base_url: Type.Optional(HttpUrl()),
    client_secret: Type.String({ pattern: CLIENT_SECRET_PATTERN }),
  },
  { $id: 'ProvisionedRobot', additionalProperties: false },
);
export type ProvisionedRobot = Static<typeof ProvisionedRobot>;

export const RobotPathParams = Type.Object({ robot_id: Uuid() });
export type RobotPathParams = Static<typeof RobotPathParams>;
