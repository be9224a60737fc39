/** A report that can never be stored as sent. The message is logged: ids and rules only, never values. */
export class ReportRejected extends Error {
  override name = 'ReportRejected';
}
