/**
 * What is wrong with a labels or predictions file (app/modules/predictions/parse.server.ts), as stored with a refused
 * file and shown in the reader's language (the screens' `predictions.fault.*` texts). No server-only import: the
 * screens read these types.
 */
export type FaultCode =
  | "header"
  | "columnCount"
  | "emptyId"
  | "unknownId"
  | "duplicateId"
  | "badNumber"
  | "badClass"
  | "badBinary"
  | "tooManyClasses"
  | "missingIds"
  | "noRows"
  | "tooManyRows"
  | "unreadable"
  | "oneClassSplit"
  | "noLabels";

export interface Fault {
  code: FaultCode;
  /** The line at fault (1 is the header); 0 for the file as a whole. */
  line: number;
  /** The cell at fault, cut to MAX_VALUE_CHARS (an id, a number, a class), or what is expected (header). */
  value?: string;
  /** duplicateId: the line where the id first came; missingIds: how many are missing. */
  other?: number;
}

export interface Faults {
  first: Fault[];
  count: number;
}

