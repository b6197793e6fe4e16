/** Input of GET /messages/{message_id}/read_receipts. */
import { type } from './known-structs.js';
import { PathInt } from './wire.js';

export const GetReadReceiptsParams = type({ message_id: PathInt });
