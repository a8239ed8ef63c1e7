/** The part of a pino-style logger the client uses; any pino logger fits. */
export interface ClientLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export const silentLogger: ClientLogger = { debug() {}, warn() {} };
