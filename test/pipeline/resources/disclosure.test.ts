import { describe, expect, it } from "vitest";
import { disclosurePhrase } from "../../../src/pipeline/resources/disclosure.ts";

describe("disclosure phrases", () => {
  it.each([
    ["Hi {first_name}, this is Ava, an AI assistant calling for Example Co.", "AI"],
    ["Hello! This is an automated call from Acme.", "automated"],
    ["Hi, I'm a virtual  assistant of Acme.", "virtual assistant"],
    ["This call uses artificial intelligence.", "artificial"],
    ["Ceci est un appel d'un bot.", "bot"],
    ["I'm an A.I. calling about your order.", "A.I."],
  ])("%s names it (%s)", (speech, phrase) => {
    expect(disclosurePhrase(speech)).toBe(phrase);
  });

  it.each([
    "Hi, this is Ava from Acme.",
    "Hello, I said I would call you back about the bottle order.", // said, bottle: not whole words
    "Hi, this is Aidan, your robotics advisor.",
    "",
  ])("%s names nothing", (speech) => {
    expect(disclosurePhrase(speech)).toBeUndefined();
  });

  it("uses a job's own phrases, any case, whole words", () => {
    const es = ["asistente virtual", "llamada automatizada"];
    expect(disclosurePhrase("Hola, soy Ana, su ASISTENTE VIRTUAL.", es)).toBe("asistente virtual");
    expect(disclosurePhrase("Hi, this is an AI assistant.", es)).toBeUndefined();
  });
});
