/** Input of POST /messages/{message_id}/report (FL 382; the reference's views/message_report.py). */
import { type } from './known-structs.js';
import { defaulted, OneOf, PathInt, Text } from './wire.js';

/** The reasons a report may give, with the label the report message shows (Realm.REPORT_MESSAGE_REASONS). */
export const REPORT_TYPES = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;

export type ReportType = keyof typeof REPORT_TYPES;

/** Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const REPORT_DESCRIPTION_MAX = 1000;

export const ReportMessageParams = type({
  message_id: PathInt,
  report_type: OneOf(Object.keys(REPORT_TYPES) as ReportType[]),
  description: defaulted(Text({ max: REPORT_DESCRIPTION_MAX }), ''),
});
