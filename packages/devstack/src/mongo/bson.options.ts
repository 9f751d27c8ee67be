// How stored and received BSON is decoded: Int64 stays a Long and regexes stay BSONRegExp so
// values round-trip unchanged; Int32 and Double become JS numbers.
import { type DeserializeOptions } from 'bson';

export const DESERIALIZE_OPTIONS: DeserializeOptions = { promoteLongs: false, promoteValues: true, promoteBuffers: false, bsonRegExp: true };
