// The row of a queued operation job as pg-boss 10 stores it. The queue makes it (queue.ts) for a
// write that inserts the job in a statement of its own making (a billable create in one statement:
// db/queries/billable-create.ts, through db/queries/jobs.ts); the core only passes it on. It
// imports nothing, so src/db and the core may name it without an import cycle.

export interface OperationJob {
  queue: string;
  data: Record<string, unknown>;
  retryLimit: number;
  retryDelayS: number;
  retryBackoff: boolean;
  expireInS: number;
  deadLetter: string;
}
