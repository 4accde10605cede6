import type { PrepickMessagesInput } from "../src/hooks/prepick-messages";

/** A second language, as an app would ship it: German, every section an app sees most. */
export const germanMessages: PrepickMessagesInput = {
  locale: "de-DE",
  form: {
    label: "Fragen des Agenten",
    progress: (position, count) => `Frage ${position} von ${count}`,
    count: (count) => `${count.text} ${count.value === 1 ? "Frage" : "Fragen"}`,
    next: "Weiter",
    confirm: "Bestätigen",
    sending: "Wird gesendet…",
    checking: "Wird geprüft…",
    back: "Zurück",
    skip: "Überspringen: Vorschläge des Agenten nehmen",
    skipping: "Wird übersprungen…",
    retry: "Erneut versuchen",
    freeText: "Oder eine eigene Antwort schreiben",
    choose: "Auswählen…",
    prePicked: "vorausgewählt",
    prePickedOption: (label) => `${label} (vorausgewählt)`,
    yes: "Ja",
    no: "Nein",
  },
  hints: {
    next: "nächste Frage",
    confirm: "bestätigen",
    newLine: "neue Zeile",
    skip: "überspringen",
  },
  skipConfirm: {
    question: "Sie haben Antworten geändert. Trotzdem überspringen?",
    discard: "Änderungen verwerfen und überspringen",
    keep: "Änderungen behalten",
  },
  status: {
    answerNotSent: () =>
      "Ihre Antworten wurden nicht gesendet. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
    skipNotSent: () => "Das Überspringen wurde nicht gesendet. Prüfen Sie die Verbindung.",
  },
  errors: {
    required: "Bitte beantworten.",
    email: "Bitte eine E-Mail-Adresse eingeben, z. B. name@example.com.",
  },
  settled: {
    answered: "Beantwortet",
    skipped: "Übersprungen: Die Vorschläge des Agenten gelten.",
    prePicked: "vorausgewählt",
    noAnswer: "Keine Antwort",
    dismissed: "Diese Fragen wurden nicht beantwortet: Der Lauf wurde abgebrochen.",
  },
  approval: {
    title: (toolName) => `Darf ${toolName} ausgeführt werden?`,
    reason: "Begründung, falls Sie ablehnen (optional)",
    approve: "Erlauben",
    reject: "Ablehnen",
  },
  toolCall: {
    running: "Läuft",
    done: "Fertig",
    failed: "Fehlgeschlagen",
    input: "Eingabe",
    output: "Ausgabe",
    malformedAsk: "Die Fragen des Agenten waren fehlerhaft; er wurde gebeten, es erneut zu versuchen.",
    details: "Details",
  },
  composer: {
    label: "Nachricht",
    placeholder: "Nachricht schreiben…",
    waitingPlaceholder: "Beantworten Sie zuerst die Fragen oben",
    send: "Senden",
    stop: "Stopp",
    notSent: () =>
      "Ihre Nachricht wurde nicht gesendet. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
    retry: "Erneut senden",
    dismiss: "Schließen",
  },
  chat: {
    title: "Agent",
    conversation: "Unterhaltung",
    empty: "Noch keine Nachrichten.",
    start: "Sagen Sie, was Sie brauchen. Hat der Agent Fragen, stellt er sie zuerst.",
    jumpToLatest: "Zur neuesten Nachricht",
    you: "Sie",
    assistant: "Agent",
    waiting: "Wartet auf Ihre Antwort",
    working: "Arbeitet…",
  },
};

/** A right-to-left language: Arabic, the form's own words. */
export const arabicMessages: PrepickMessagesInput = {
  locale: "ar-EG",
  form: {
    label: "أسئلة من الوكيل",
    progress: (position, count) => `السؤال ${position} من ${count}`,
    next: "التالي",
    confirm: "تأكيد",
    back: "رجوع",
    skip: "تخطٍّ: استخدم اختيارات الوكيل",
    retry: "أعد المحاولة",
    freeText: "أو اكتب إجابتك",
    prePicked: "مختار مسبقًا",
    yes: "نعم",
    no: "لا",
  },
  hints: { next: "السؤال التالي", confirm: "تأكيد", newLine: "سطر جديد", skip: "تخطٍّ" },
  settled: {
    answered: "تمت الإجابة",
    skipped: "تم التخطي: اختيارات الوكيل قائمة.",
    prePicked: "مختار مسبقًا",
  },
};
