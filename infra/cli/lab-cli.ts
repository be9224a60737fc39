/**
 * `npm run lab -- report <appointment-id> [--partial] [--genetic] [--preliminary] [--critical <biomarker_id>]`
 * and `npm run lab -- correct <appointment-id> <biomarker_id>=<value>`: the local lab sandbox. Against the
 * running `npm start` stack (found through its stack file, or the same variables), it reads what the
 * appointment plans, invents plausible values inside each biomarker's reference range, renders a PDF
 * report, uploads it to `incoming/`, and hands a LabResultsReported event to the SAME ingest handler that
 * runs in Lambda.
 *
 * Every planned test is reported, clinical and genetic (a plausible genotype per gene).
 *   --partial  reports about half of them (half of each kind, rounded up)
 *   --genetic  adds an APOE finding with variants that was not planned (as a lab reports an extra finding)
 *   --preliminary  sends every value as preliminary (the results stay in progress until a final report)
 *   --critical <biomarker_id>  gives that planned clinical test a value beyond its critical limits
 * `correct` sends a correction of one reported clinical value (same unit, range and test date).
 * `reject <appointment-id> --reason <code> [--biomarkers <id,id>]` rejects the specimen (every planned test,
 * or the named ones): they become not performed, and the person must be drawn again.
 * `--reported-at <ISO instant>` (any command): the report's time instead of now (its tests dated that day),
 * to try a late, early or future report: the ingest refuses one more than 5 minutes ahead, and one older
 * than the value stored, saying why.
 * `report-unsolicited <barcode> --like <appointment-id>` (issue #51): a mislabelled tube. Every test planned on that
 * appointment, reported under a barcode no order holds, naming that appointment's person (HL7 PID-5/PID-7, or
 * the JSON report's `patient`): the ingest keeps it as an unmatched result, to try the lab-operations queue
 * (GET /api/v1/lab/unmatched-results, then …/{id}/match with the appointment's id).
 * `--format hl7` (any command): the lab speaks HL7 v2 instead: the same report written as an ORU^R01
 * message (infra/cli/hl7-message.ts, its PDF embedded), uploaded under `incoming/hl7/`, and handed to
 * the ingest as the S3 `Object Created` event EventBridge would deliver.
 * `orders [--json]` and `refuse-next [--text "…"]` (issue #51): the simulated lab's inbox of order messages,
 * and its next answer (./lab-inbox.ts).
 * Bad arguments or an appointment that cannot be reported on: a message on stderr and exit code 2.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { HL7_PREFIX, INCOMING_PREFIX } from '../../shared/documents/bucket-layout';
import { isZonedDateTime } from '../../shared/domain/instant';
import { rangeFlag, REJECTION_REASONS, type RejectionReason } from '../../shared/domain/results';
import { BARCODE_PATTERN } from '../../shared/domain/sample';
import { localFunctionEnvironment } from '../local/environment';
import { labResultsReportedEvent } from './lab-event';
import { apoeResult, clinicalSamples, geneticFinding, rangeText } from './lab-samples';
import { isLabInboxCommand, LAB_INBOX_USAGE, runLabInboxCommand } from './lab-inbox';
import { runningStackSettings } from '../local/stack-file';
import { asUsage, runCli, UsageError } from './usage';

const USAGE = `usage:
  npm run lab -- report <appointment-id> [--partial] [--genetic] [--preliminary] [--critical <biomarker_id>]
  npm run lab -- correct <appointment-id> <biomarker_id>=<value>
  npm run lab -- reject <appointment-id> --reason <code> [--biomarkers <id,id>]
    codes: ${REJECTION_REASONS.join(', ')}
${LAB_INBOX_USAGE}
  npm run lab -- report-unsolicited <barcode> --like <appointment-id>
    the tests planned on that appointment, under a barcode no order holds: kept as an unmatched result
  any of them with --format hl7: sent as an HL7 v2 ORU^R01 message instead of a JSON event
  any of them with --reported-at <ISO instant, e.g. 2026-11-28T09:30:00Z>: the report's time instead of now
  npm run lab -- --help`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function parse(argv: string[]) {
  return asUsage(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        partial: { type: 'boolean' },
        genetic: { type: 'boolean' },
        preliminary: { type: 'boolean' },
        critical: { type: 'string' },
        reason: { type: 'string' },
        biomarkers: { type: 'string' },
        format: { type: 'string' },
        'reported-at': { type: 'string' },
        json: { type: 'boolean' },
        text: { type: 'string' },
        like: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }),
  );
}

/** report-unsolicited's barcode, checked as the API checks one, with its --like appointment. */
function unsolicitedBarcode(barcode: string | undefined, like: string | undefined, rest: string[]): string {
  if (!barcode || rest.length > 0) throw new UsageError('report-unsolicited takes one barcode, and --like <appointment-id>');
  if (!BARCODE_PATTERN.test(barcode)) throw new UsageError(`not a barcode (6–32 characters of A–Z, 0–9 and -): ${barcode}`);
  if (like === undefined) throw new UsageError('report-unsolicited takes --like <appointment-id>: the appointment whose tests and person it reports');
  return barcode;
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (isLabInboxCommand(positionals[0])) return runLabInboxCommand(positionals, values);
  if (values.json || values.text !== undefined) throw new UsageError('--json and --text apply to orders and refuse-next only');
  const [command, firstArgument, ...rest] = positionals;
  if (command !== 'report' && command !== 'correct' && command !== 'reject' && command !== 'report-unsolicited')
    throw new UsageError(command ? `unknown command: ${command}` : 'a command is required');
  // report-unsolicited names the barcode, and the appointment whose tests and person it reports with --like.
  const unsolicited = command === 'report-unsolicited' ? unsolicitedBarcode(firstArgument, values.like, rest) : undefined;
  if (command !== 'report-unsolicited' && values.like !== undefined) throw new UsageError('--like applies to report-unsolicited only');
  const appointmentId = unsolicited ? values.like : firstArgument;
  if (!appointmentId) throw new UsageError(`${command} takes an appointment id`);
  if (!UUID.test(appointmentId)) throw new UsageError(`not an appointment id (a UUID): ${appointmentId}`);
  if (command !== 'correct' && rest.length > 0) throw new UsageError(`${command} takes exactly one appointment id`);
  const reason = values.reason as RejectionReason | undefined;
  if (command === 'reject' && !(reason && REJECTION_REASONS.includes(reason)))
    throw new UsageError(`reject takes --reason, one of ${REJECTION_REASONS.join(', ')}`);
  const rejectedIds = values.biomarkers?.split(',').map(Number);
  if (rejectedIds?.some((id) => !Number.isInteger(id) || id < 1))
    throw new UsageError(`--biomarkers takes biomarker ids separated by commas: ${values.biomarkers}`);
  const correction = command === 'correct' ? /^(\d+)=(-?\d+(?:\.\d+)?)$/.exec(rest.join(' ')) : null;
  if (command === 'correct' && !correction) throw new UsageError('correct takes <biomarker_id>=<value>, e.g. 2=13.4');
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'hl7') throw new UsageError(`--format takes json or hl7: ${format}`);
  const givenTime = values['reported-at'];
  if (givenTime !== undefined && !isZonedDateTime(givenTime))
    throw new UsageError(`--reported-at takes an ISO 8601 instant with its zone, e.g. 2026-11-28T09:30:00Z: ${givenTime}`);
  const criticalId = values.critical === undefined ? undefined : Number(values.critical);
  if (criticalId !== undefined && !Number.isInteger(criticalId)) throw new UsageError(`--critical takes a biomarker id: ${values.critical}`);

  Object.assign(process.env, localFunctionEnvironment(runningStackSettings()));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN'; // the simulator prints its own summary
  const { now } = await import('../../shared/config');
  const { getAppointmentAggregate } = await import('../../shared/store/appointments/reads');
  const { loadCatalog, plannedBiomarkers } = await import('../../shared/store/catalog');
  const { getExistingProfile } = await import('../../shared/store/profiles');
  const { PutObjectCommand } = await import('@aws-sdk/client-s3');
  const { s3 } = await import('../../shared/documents/s3');
  const { handler: ingest } = await import('../../functions/events/results-ingest');
  const { renderLabReport } = await import('./lab-report-pdf');
  const { hl7Timestamp, objectCreatedEvent, oruR01, SANDBOX_LAB } = await import('./hl7-message');
  const { hl7EventId } = await import('../../shared/hl7/oru-r01');
  const { unmatchedIdOf } = await import('../../shared/usecases/keep-unmatched-result');
  /** The event_id of the report report-unsolicited sent: its unmatched result is named after it. */
  let unmatchedEventId: string | undefined;

  const { appointmentIdOfBarcode } = await import('../../shared/store/lab-reports');
  if (unsolicited && (await appointmentIdOfBarcode(unsolicited))) throw new UsageError(`an order holds barcode ${unsolicited}: use report`);
  const aggregate = await getAppointmentAggregate(appointmentId);
  if (!aggregate) throw new UsageError(`no appointment ${appointmentId} in the local stack`);
  const { appointment } = aggregate;
  if (appointment.status === 'scheduled' || appointment.status === 'cancelled') {
    throw new UsageError(`appointment ${appointmentId} is ${appointment.status}: confirm the blood draw first`);
  }
  const catalog = await loadCatalog();
  // Now by the service's clock (LAB_CLOCK when the stack runs with a fixed one), as the ingest sees it.
  const reportedAt = (givenTime === undefined ? now() : new Date(givenTime)).toISOString();
  const bucket = process.env.DOCUMENTS_BUCKET!;
  const upload = (key: string, body: Buffer | string, contentType: string) =>
    s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
  // A mislabelled tube names the appointment's person as the lab's system holds them (issue #51).
  const person = unsolicited ? await getExistingProfile(appointment.profile_id) : undefined;
  /** The report as the lab sends it: a JSON event naming its uploaded PDF, or an HL7 message embedding it. */
  const deliver = async (detail: Record<string, unknown>, pdf?: { file_name: string; bytes: Buffer }) => {
    if (format === 'hl7') {
      if (!appointment.barcode) throw new UsageError(`appointment ${appointmentId} has no barcode: an HL7 message names the sample by it`);
      const controlId = randomUUID().replaceAll('-', '').slice(0, 20);
      if (unsolicited) unmatchedEventId = hl7EventId(SANDBOX_LAB.application, SANDBOX_LAB.facility, controlId, hl7Timestamp(reportedAt));
      const message = oruR01(
        {
          control_id: controlId,
          barcode: unsolicited ?? appointment.barcode,
          ...(person && {
            patient: { family_name: person.last_name ?? null, given_name: person.first_name ?? null, date_of_birth: person.date_of_birth ?? null },
          }),
          reported_at: reportedAt,
          drawn_at: appointment.blood_drawn_at,
          ...(detail as Pick<Parameters<typeof oruR01>[0], 'clinical_results' | 'genetic_results' | 'rejection'>),
          documents: pdf ? [pdf] : [],
        },
        (id) => {
          const biomarker = catalog.biomarkers.get(id);
          return biomarker?.loinc
            ? { code: biomarker.loinc, text: biomarker.name, system: 'LN' }
            : { code: String(id), text: biomarker?.name ?? `Biomarker ${id}`, system: '99LAB' };
        },
      );
      const key = `${HL7_PREFIX}${randomUUID()}.hl7`;
      await upload(key, message, 'application/hl7-v2');
      return ingest(objectCreatedEvent(bucket, key, Buffer.byteLength(message)) as Parameters<typeof ingest>[0]);
    }
    let documents: unknown[] = [];
    if (pdf) {
      const s3Key = `${INCOMING_PREFIX}${randomUUID()}.pdf`;
      await upload(s3Key, pdf.bytes, 'application/pdf');
      documents = [{ s3_key: s3Key, file_name: pdf.file_name, content_type: 'application/pdf' }];
    }
    const eventId = randomUUID();
    if (unsolicited) unmatchedEventId = eventId;
    const names = person
      ? {
          barcode: unsolicited,
          patient: { name: [person.last_name, person.first_name].filter(Boolean).join(', ') || null, date_of_birth: person.date_of_birth ?? null },
        }
      : { appointment_id: appointmentId };
    return ingest(labResultsReportedEvent({ event_id: eventId, ...names, reported_at: reportedAt, ...detail, ...(pdf ? { documents } : {}) }, reportedAt));
  };

  if (command === 'reject') {
    const { outcome } = await deliver({ rejection: { reason_code: reason, ...(rejectedIds ? { biomarker_ids: rejectedIds } : {}) } });
    console.log(
      `Rejected the specimen of appointment ${appointmentId} (${reason}, ${rejectedIds ? `tests ${rejectedIds.join(', ')}` : 'every planned test'}: ${outcome}).`,
    );
    console.log(`Draw again: POST /api/v1/appointments with "recollection_of": "${appointmentId}"`);
    return;
  }

  if (correction) {
    const biomarkerId = Number(correction[1]);
    const stored = aggregate.clinicalResults.find((result) => result.biomarker_id === biomarkerId);
    if (!stored) throw new UsageError(`appointment ${appointmentId} has no reported clinical result for biomarker ${biomarkerId} to correct`);
    const { superseded: _past, reported_at: _at, event_id: _event, interpretation: _flag, ...corrected } = stored;
    const { outcome } = await deliver({ clinical_results: [{ ...corrected, value: Number(correction[2]), result_status: 'corrected' }] });
    console.log(`Corrected biomarker ${biomarkerId} of appointment ${appointmentId} to ${correction[2]} (${outcome}).`);
    console.log(`Every version: GET /api/v1/appointments/${appointmentId}/results/history`);
    return;
  }

  const planned = plannedBiomarkers(aggregate, catalog);
  if (criticalId !== undefined && !(planned.includes(criticalId) && catalog.biomarkers.get(criticalId)?.kind === 'clinical')) {
    throw new UsageError(`--critical ${criticalId}: not a planned clinical test of appointment ${appointmentId}`);
  }
  const half = <T>(items: T[]) => (values.partial ? items.slice(0, Math.ceil(items.length / 2)) : items);
  const clinicalPlanned = planned.filter((id) => catalog.biomarkers.get(id)?.kind === 'clinical');
  const geneticPlanned = planned.filter((id) => catalog.biomarkers.get(id)?.kind === 'genetic');
  // The critical test is reported even when --partial leaves it out.
  const reported = [...new Set([...half(clinicalPlanned), ...(criticalId === undefined ? [] : [criticalId])])];
  const testedAt = reportedAt.slice(0, 10);

  const clinical_results = clinicalSamples(reported, catalog, { criticalId, testedAt, preliminary: values.preliminary === true });
  const genetic_results = half(geneticPlanned).map((id) => geneticFinding(catalog.biomarkers.get(id) ?? { id, name: `Biomarker ${id}` }, testedAt));
  const extraFinding = values.genetic && !geneticPlanned.includes(apoeResult(testedAt).biomarker_id);
  if (extraFinding) genetic_results.push(apoeResult(testedAt));

  const profile = person ?? (await getExistingProfile(appointment.profile_id));
  const initials = `${profile.first_name?.[0] ?? '?'}.${profile.last_name?.[0] ?? '?'}.`;
  const pdf = await renderLabReport({
    patientInitials: initials,
    appointmentId,
    barcode: unsolicited ?? appointment.barcode ?? '-',
    reportedAt,
    sampleDate: appointment.blood_drawn_at ?? testedAt,
    lines: clinical_results.map((result) => ({
      biomarker: catalog.biomarkers.get(result.biomarker_id)?.name ?? String(result.biomarker_id),
      value: String(result.value),
      unit: result.unit ?? '',
      range: rangeText(result.reference_range_lab),
      flag: { H: 'H', L: 'L', N: '' }[rangeFlag(result.value, result.reference_range_lab) ?? 'N'],
    })),
    geneticSummary: genetic_results.length ? genetic_results.map((r) => `${r.gene} ${r.genotype}: ${r.clinical_significance}`).join('; ') : undefined,
  });

  const genetic = values.preliminary ? genetic_results.map((result) => ({ ...result, result_status: 'preliminary' as const })) : genetic_results;
  const { outcome } = await deliver({ clinical_results, genetic_results: genetic }, { file_name: `lab-report-${testedAt}.pdf`, bytes: Buffer.from(pdf) });
  const plannedGeneticReported = genetic_results.length - (extraFinding ? 1 : 0);
  if (unsolicited) {
    const id = unmatchedIdOf(unmatchedEventId!);
    console.log(
      `Reported the ${clinical_results.length + plannedGeneticReported} test(s) planned on appointment ${appointmentId} under barcode ${unsolicited}, ` +
        `which no order holds (${outcome}: unmatched result ${id}).`,
    );
    console.log(`List it: GET /api/v1/lab/unmatched-results; match it: POST /api/v1/lab/unmatched-results/${id}/match {"appointment_id": "${appointmentId}"}`);
    return;
  }
  console.log(
    `Reported ${clinical_results.length + plannedGeneticReported} of ${planned.length} planned result(s) ` +
      `(${clinical_results.length} of ${clinicalPlanned.length} clinical, ${plannedGeneticReported} of ${geneticPlanned.length} genetic)` +
      `${extraFinding ? ' and an unplanned APOE finding' : ''}${values.preliminary ? ', all preliminary' : ''}` +
      `${criticalId === undefined ? '' : `, biomarker ${criticalId} critical`}${values.preliminary || criticalId !== undefined ? ',' : ''}` +
      ` for appointment ${appointmentId} (${outcome}).`,
  );
  console.log(`PDF report: ${pdf.length} bytes. Read them: GET /api/v1/appointments/${appointmentId}/results`);
}

runCli('lab', USAGE, () => main(process.argv.slice(2)));
