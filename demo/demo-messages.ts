import type { Count, NumberRange, PrepickMessages } from "../src/hooks/prepick-messages";

// The demo's second and third languages, complete: typed as the whole messages object, so a
// string added to it fails the type check until each language has it.

const germanPlurals = new Intl.PluralRules("de-DE");

/** `1 Zeichen` / `2 Zeichen`, `1 Frage` / `2 Fragen`. */
const de = (count: Count, one: string, other: string) =>
  `${count.text} ${germanPlurals.select(count.value) === "one" ? one : other}`;

function germanNumber(range: NumberRange): string {
  const noun = range.whole ? "eine ganze Zahl" : "eine Zahl";
  const steps = range.step !== undefined ? ` in Schritten von ${range.step}` : "";
  if (range.min !== undefined && range.max !== undefined)
    return `Geben Sie ${noun} von ${range.min} bis ${range.max}${steps} ein.`;
  if (range.min !== undefined) return `Geben Sie ${noun} ab ${range.min}${steps} ein.`;
  if (range.max !== undefined) return `Geben Sie ${noun} bis ${range.max}${steps} ein.`;
  return `Geben Sie ${noun}${steps} ein.`;
}

/** German, every string. */
export const germanMessages: PrepickMessages = {
  locale: "de-DE",
  form: {
    label: "Fragen des Agenten",
    progress: (position, count) => `Frage ${position} von ${count}`,
    count: (count) => de(count, "Frage", "Fragen"),
    next: "Weiter",
    confirm: "Bestätigen",
    sending: "Wird gesendet…",
    checking: "Wird geprüft…",
    back: "Zurück",
    skip: "Überspringen: Vorschläge des Agenten nehmen",
    skipToAgent: "Überspringen: Der Agent entscheidet",
    skipping: "Wird übersprungen…",
    retry: "Erneut versuchen",
    freeText: "Oder eine eigene Antwort schreiben",
    choose: "Auswählen…",
    prePicked: "vorausgewählt",
    prePickedOption: (label) => `${label} (vorausgewählt)`,
    yes: "Ja",
    no: "Nein",
    charactersLeft: (left) => `noch ${de(left, "Zeichen", "Zeichen")}`,
    charactersOver: (over) => `${de(over, "Zeichen", "Zeichen")} zu viel`,
  },
  hints: {
    next: "nächste Frage",
    confirm: "bestätigen",
    newLine: "neue Zeile",
    skip: "überspringen: Vorschläge des Agenten nehmen",
    skipToAgent: "überspringen: Der Agent entscheidet",
  },
  skipConfirm: {
    question: "Sie haben Antworten geändert. Trotzdem überspringen und die Vorschläge des Agenten nehmen?",
    questionToAgent:
      "Sie haben Antworten geändert. Trotzdem überspringen und den Agenten entscheiden lassen?",
    discard: "Änderungen verwerfen und überspringen",
    keep: "Änderungen behalten",
  },
  status: {
    refused: (detail) =>
      detail === ""
        ? "Diese Antworten wurden nicht angenommen."
        : `Diese Antworten wurden nicht angenommen. ${detail}`,
    answerNotSent: () =>
      "Ihre Antworten wurden nicht gesendet. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
    skipNotSent: () =>
      "Das Überspringen wurde nicht gesendet. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
    cannotCheck: () =>
      "Diese Antworten können gerade nicht geprüft werden. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
  },
  errors: {
    required: (prompt) => `„${prompt}“ muss beantwortet werden.`,
    option: "Wählen Sie eine der Optionen.",
    single: "Wählen Sie nur eine.",
    boolean: "Wählen Sie Ja oder Nein.",
    number: germanNumber,
    textTooShort: (min, length) => `Mindestens ${de(min, "Zeichen", "Zeichen")} (jetzt ${length.text}).`,
    textTooLong: (max, length) => `Höchstens ${de(max, "Zeichen", "Zeichen")} (jetzt ${length.text}).`,
    date: "Geben Sie ein Datum ein, z. B. 04.12.2026.",
    datetime: "Geben Sie Datum und Uhrzeit ein, z. B. 04.12.2026 14:30.",
    dateRange: (range) => {
      if (range.min !== undefined && range.max !== undefined)
        return `Wählen Sie ein Datum vom ${range.min} bis ${range.max}.`;
      if (range.min !== undefined) return `Wählen Sie ein Datum ab dem ${range.min}.`;
      return `Wählen Sie ein Datum bis zum ${range.max}.`;
    },
    email: "Geben Sie eine E-Mail-Adresse ein, z. B. name@example.com.",
    url: "Geben Sie eine Webadresse ein, z. B. https://example.com.",
    scheme: (schemes) => `Geben Sie eine Webadresse ein, die mit ${schemes} beginnt.`,
    pattern: (example) =>
      example !== undefined
        ? `Geben Sie es in der verlangten Form ein (${example}).`
        : "Geben Sie es in der Form ein, die die Frage verlangt.",
    tooFewPicks: (min) => `Wählen Sie mindestens ${min.text}.`,
    tooManyPicks: (max) => `Wählen Sie höchstens ${max.text}.`,
    unknownQuestion: "Eine Antwort galt einer Frage, die es hier nicht gibt.",
    unreadable: "Diese Antwort konnte nicht gelesen werden.",
    refused: "Diese Antwort wurde nicht angenommen.",
  },
  settled: {
    answered: "Beantwortet",
    skipped: "Übersprungen: Die Vorschläge des Agenten gelten.",
    skippedToAgent: "Übersprungen: Was ohne Vorschlag blieb, entscheidet der Agent.",
    prePicked: "vorausgewählt",
    noAnswer: "Keine Antwort",
    leftToAgent: "Keine Antwort: Der Agent entscheidet",
    dismissed: "Diese Fragen wurden nicht beantwortet: Der Lauf wurde abgebrochen.",
  },
  approval: {
    title: (toolName) => `Darf ${toolName} ausgeführt werden?`,
    approvedTitle: (toolName) => `${toolName} erlaubt`,
    rejectedTitle: (toolName) => `${toolName} abgelehnt`,
    reason: "Begründung, falls Sie ablehnen (optional)",
    approve: "Erlauben",
    approving: "Wird erlaubt…",
    reject: "Ablehnen",
    rejecting: "Wird abgelehnt…",
    retry: "Erneut versuchen",
    approved: "Sie haben diesen Aufruf erlaubt.",
    rejected: (reason) =>
      reason
        ? `Sie haben diesen Aufruf abgelehnt. Begründung: ${reason}`
        : "Sie haben diesen Aufruf abgelehnt.",
    decidedElsewhere: "Er war bereits anderswo entschieden worden.",
    notSent: () =>
      "Ihre Entscheidung wurde nicht gesendet. Prüfen Sie die Verbindung und versuchen Sie es erneut.",
    proposed: "vorgeschlagen",
    proposedOption: (label) => `${label} (vorgeschlagen)`,
    editHint: "Der Agent hat diese Werte vorgeschlagen. Ändern Sie, was Sie möchten, bevor Sie erlauben.",
    approvedWithEdits: "Sie haben diesen Aufruf mit Ihren Änderungen erlaubt.",
    wasProposed: (value) => `vorgeschlagen: ${value}`,
  },
  toolCall: {
    running: "Läuft",
    done: "Fertig",
    failed: "Fehlgeschlagen",
    rejected: "Abgelehnt",
    cancelled: "Abgebrochen",
    input: "Eingabe",
    output: "Ausgabe",
    error: "Fehler",
    failedWithoutReason: "Das Werkzeug ist fehlgeschlagen.",
    waiting: "Warte auf das Ergebnis…",
    rejectedBecause: (reason) => (reason ? `Abgelehnt: ${reason}` : "Abgelehnt."),
    cancelledBeforeDecision: "Mit seinem Lauf abgebrochen, bevor jemand entschied.",
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
    refused: (detail) => `Ihre Nachricht wurde nicht angenommen: ${detail}`,
    retry: "Erneut senden",
    dismiss: "Schließen",
  },
  chat: {
    title: "Agent",
    conversation: "Unterhaltung",
    empty: "Noch keine Nachrichten. Sagen Sie, was Sie brauchen, der Agent übernimmt.",
    start: "Sagen Sie, was Sie brauchen. Hat der Agent Fragen, stellt er sie zuerst, mit seinen Vorschlägen.",
    loadFailed: () =>
      "Diese Unterhaltung konnte nicht geladen werden. Prüfen Sie die Verbindung und laden Sie die Seite neu.",
    replyFailed: () => "Die Antwort brach vor dem Ende ab. Prüfen Sie die Verbindung und senden Sie erneut.",
    runFailed: ({ code, errorId }) => {
      const id = errorId ? ` Wenn es wieder passiert, nennen Sie den Fehler ${errorId}.` : "";
      switch (code) {
        case "model-timeout":
          return `Das Modell des Agenten hat zu lange gebraucht, deshalb brach die Antwort ab. Senden Sie Ihre Nachricht erneut.${id}`;
        case "model-failed":
          return `Das Modell des Agenten konnte nicht antworten, deshalb brach die Antwort ab. Senden Sie Ihre Nachricht erneut.${id}`;
        case "step-limit":
          return `Der Agent arbeitete weiter, ohne zu einer Antwort zu kommen, und hörte deshalb auf. Fragen Sie in kleineren Schritten.${id}`;
        case "agent-changed":
          return `Der Agent wurde geändert, während er an dieser Antwort arbeitete. Senden Sie Ihre Nachricht erneut.${id}`;
        case "agent-missing":
          return `Der Agent dieses Gesprächs ist nicht mehr verfügbar.${id}`;
        default:
          return `Auf dem Server ging etwas schief, deshalb brach die Antwort ab.${id}`;
      }
    },
    jumpToLatest: "Zur neuesten Nachricht",
    showEarlier: "Frühere Nachrichten zeigen",
    loadingEarlier: "Frühere Nachrichten werden geladen…",
    conversations: "Unterhaltungen",
    newConversation: "Neue Unterhaltung",
    inbox: "Eingang",
    close: "Schließen",
    you: "Sie",
    assistant: "Agent",
    thinking: "Denkt nach…",
    reasoning: "Überlegungen",
    waiting: "Wartet auf Ihre Antwort",
    working: "Arbeitet…",
    offline: "Der Server ist nicht erreichbar. Neue Verbindung wird aufgebaut…",
    reconnected: "Wieder verbunden.",
    showMore: "Mehr zeigen",
    showLess: "Weniger zeigen",
    copy: "Kopieren",
    copied: "Kopiert",
    copyFailed: "Kopieren nicht möglich",
  },
  inbox: {
    title: "Wartet auf Sie",
    empty: "Nichts wartet auf Sie.",
    waiting: (count) =>
      count.value === 0
        ? "Nichts wartet auf Sie"
        : germanPlurals.select(count.value) === "one"
          ? `${count.text} Aufruf wartet auf Sie`
          : `${count.text} Aufrufe warten auf Sie`,
    questions: (count, agent) => `${de(count, "Frage", "Fragen")} von ${agent}`,
    approval: (toolName) => `${toolName} erlauben?`,
    untitled: (agent) => `Unterhaltung mit ${agent}`,
    openConversation: "Unterhaltung öffnen",
    answered: "Beantwortet. Der Agent macht in der Unterhaltung weiter.",
    decided: "Entschieden. Der Agent macht in der Unterhaltung weiter.",
    skipped: "Übersprungen: Die Vorschläge des Agenten gelten. Er macht in der Unterhaltung weiter.",
    skippedToAgent: "Übersprungen: Der Agent entscheidet. Er macht in der Unterhaltung weiter.",
  },
  threads: {
    empty: "Noch keine Unterhaltungen.",
    older: "Ältere Unterhaltungen",
    waiting: (count) => `${count.text} wartend`,
  },
  call: {
    loading: "Wird geöffnet…",
    notFound:
      "Unter diesem Link wartet nichts auf Sie. Er gehört vielleicht jemand anderem oder besteht nicht mehr.",
    failed: "Das ließ sich gerade nicht öffnen. Versuchen Sie es gleich noch einmal.",
    tryAgain: "Erneut versuchen",
    settled: (status, kind) =>
      ({
        answered: "Das wurde bereits beantwortet.",
        skipped: "Das wurde bereits übersprungen: Die Vorschläge des Agenten galten.",
        approved: "Das wurde bereits erlaubt.",
        rejected: "Das wurde bereits abgelehnt.",
        expired:
          kind === "approval"
            ? "Das ist abgelaufen, bevor jemand entschieden hat."
            : "Das ist abgelaufen, bevor jemand geantwortet hat.",
      })[status] ?? "Das wartet nicht mehr: Die Unterhaltung wurde angehalten.",
  },
  deadline: {
    answerBy: (time, left) =>
      `Antworten Sie bis ${time} (noch ${left}). Antwortet bis dahin niemand, hört der Agent auf.`,
    decideBy: (time, left) =>
      `Entscheiden Sie bis ${time} (noch ${left}). Entscheidet bis dahin niemand, hört der Agent auf.`,
    questionsExpired: (time) =>
      `Diese Fragen sind um ${time} abgelaufen, bevor jemand geantwortet hat, daher hat der Agent aufgehört.`,
    approvalExpired: (time) =>
      `Das ist um ${time} abgelaufen, bevor jemand entschieden hat, daher hat der Agent aufgehört.`,
    questionsLapsed: (time) =>
      `Diese Fragen sind um ${time} abgelaufen und können nicht mehr beantwortet werden.`,
  },
};

const arabicPlurals = new Intl.PluralRules("ar-EG");

/** An Arabic count and noun: one, two, a few (3–10) or many take different forms. */
const ar = (count: Count, forms: { one: string; two: string; few: string; other: string }) => {
  switch (arabicPlurals.select(count.value)) {
    case "one":
      return forms.one;
    case "two":
      return forms.two;
    case "few":
      return `${count.text} ${forms.few}`;
    default:
      return `${count.text} ${forms.other}`;
  }
};
const questionsAr = { one: "سؤال واحد", two: "سؤالان", few: "أسئلة", other: "سؤالًا" };
const charactersAr = { one: "حرف واحد", two: "حرفان", few: "أحرف", other: "حرفًا" };

function arabicNumber(range: NumberRange): string {
  const noun = range.whole ? "عددًا صحيحًا" : "عددًا";
  const steps = range.step !== undefined ? ` بخطوات قدرها ${range.step}` : "";
  if (range.min !== undefined && range.max !== undefined)
    return `أدخل ${noun} من ${range.min} إلى ${range.max}${steps}.`;
  if (range.min !== undefined) return `أدخل ${noun} لا يقل عن ${range.min}${steps}.`;
  if (range.max !== undefined) return `أدخل ${noun} لا يزيد على ${range.max}${steps}.`;
  return `أدخل ${noun}${steps}.`;
}

/** Arabic, right to left, every string. */
export const arabicMessages: PrepickMessages = {
  locale: "ar-EG",
  form: {
    label: "أسئلة من الوكيل",
    progress: (position, count) =>
      `السؤال ${position.toLocaleString("ar-EG")} من ${count.toLocaleString("ar-EG")}`,
    count: (count) => ar(count, questionsAr),
    next: "التالي",
    confirm: "تأكيد",
    sending: "جارٍ الإرسال…",
    checking: "جارٍ التحقق…",
    back: "رجوع",
    skip: "تخطٍّ: استخدم اختيارات الوكيل",
    skipToAgent: "تخطٍّ: دع الوكيل يقرر",
    skipping: "جارٍ التخطي…",
    retry: "أعد المحاولة",
    freeText: "أو اكتب إجابتك",
    choose: "اختر…",
    prePicked: "مختار مسبقًا",
    prePickedOption: (label) => `${label} (مختار مسبقًا)`,
    yes: "نعم",
    no: "لا",
    charactersLeft: (left) => `بقي ${ar(left, charactersAr)}`,
    charactersOver: (over) => `${ar(over, charactersAr)} زيادة`,
  },
  hints: {
    next: "السؤال التالي",
    confirm: "تأكيد",
    newLine: "سطر جديد",
    skip: "تخطٍّ: استخدم اختيارات الوكيل",
    skipToAgent: "تخطٍّ: دع الوكيل يقرر",
  },
  skipConfirm: {
    question: "غيّرت بعض الإجابات. هل تتخطى على أي حال وتبقى اختيارات الوكيل؟",
    questionToAgent: "غيّرت بعض الإجابات. هل تتخطى على أي حال وتدع الوكيل يقرر؟",
    discard: "تجاهل تغييراتي وتخطَّ",
    keep: "احتفظ بتغييراتي",
  },
  status: {
    refused: (detail) => (detail === "" ? "لم تُقبل هذه الإجابات." : `لم تُقبل هذه الإجابات. ${detail}`),
    answerNotSent: () => "لم تُرسل إجاباتك. تحقق من الاتصال ثم أعد المحاولة.",
    skipNotSent: () => "لم يُرسل التخطي. تحقق من الاتصال ثم أعد المحاولة.",
    cannotCheck: () => "يتعذر التحقق من هذه الإجابات الآن. تحقق من الاتصال ثم أعد المحاولة.",
  },
  errors: {
    required: (prompt) => `السؤال «${prompt}» يحتاج إلى إجابة.`,
    option: "اختر أحد الخيارات.",
    single: "اختر خيارًا واحدًا فقط.",
    boolean: "اختر نعم أو لا.",
    number: arabicNumber,
    textTooShort: (min, length) => `${ar(min, charactersAr)} على الأقل (الآن ${length.text}).`,
    textTooLong: (max, length) => `${ar(max, charactersAr)} على الأكثر (الآن ${length.text}).`,
    date: "أدخل تاريخًا، مثل ٢٠٢٦-١٢-٠٤.",
    datetime: "أدخل تاريخًا ووقتًا، مثل ٢٠٢٦-١٢-٠٤ ١٤:٣٠.",
    dateRange: (range) => {
      if (range.min !== undefined && range.max !== undefined)
        return `اختر تاريخًا من ${range.min} إلى ${range.max}.`;
      if (range.min !== undefined) return `اختر تاريخًا في ${range.min} أو بعده.`;
      return `اختر تاريخًا في ${range.max} أو قبله.`;
    },
    email: "أدخل عنوان بريد إلكتروني، مثل name@example.com.",
    url: "أدخل عنوان ويب، مثل https://example.com.",
    scheme: (schemes) => `أدخل عنوان ويب يبدأ بـ ${schemes}.`,
    pattern: (example) =>
      example !== undefined ? `أدخله بالصيغة المطلوبة (${example}).` : "أدخله بالصيغة التي يطلبها السؤال.",
    tooFewPicks: (min) => `اختر ${min.text} على الأقل.`,
    tooManyPicks: (max) => `اختر ${max.text} على الأكثر.`,
    unknownQuestion: "أُرسلت إجابة لسؤال ليس في هذه المجموعة.",
    unreadable: "تعذرت قراءة هذه الإجابة.",
    refused: "لم تُقبل هذه الإجابة.",
  },
  settled: {
    answered: "تمت الإجابة",
    skipped: "تم التخطي: اختيارات الوكيل قائمة.",
    skippedToAgent: "تم التخطي: يقرر الوكيل ما لم يكن له اختيار فيه.",
    prePicked: "مختار مسبقًا",
    noAnswer: "لا إجابة",
    leftToAgent: "لا إجابة: الوكيل يقرر",
    dismissed: "لم يُجب عن هذه الأسئلة: أُلغي التشغيل.",
  },
  approval: {
    title: (toolName) => `هل تسمح بتشغيل ${toolName}؟`,
    approvedTitle: (toolName) => `تمت الموافقة على ${toolName}`,
    rejectedTitle: (toolName) => `تم رفض ${toolName}`,
    reason: "السبب إن رفضت (اختياري)",
    approve: "موافقة",
    approving: "جارٍ الموافقة…",
    reject: "رفض",
    rejecting: "جارٍ الرفض…",
    retry: "أعد المحاولة",
    approved: "وافقت على هذا الاستدعاء.",
    rejected: (reason) => (reason ? `رفضت هذا الاستدعاء. السبب: ${reason}` : "رفضت هذا الاستدعاء."),
    decidedElsewhere: "كان قد حُسم في مكان آخر.",
    notSent: () => "لم يُرسل قرارك. تحقق من الاتصال ثم أعد المحاولة.",
    proposed: "مقترح",
    proposedOption: (label) => `${label} (مقترح)`,
    editHint: "اقترح الوكيل هذه القيم. غيّر ما تشاء قبل الموافقة.",
    approvedWithEdits: "وافقت على هذا الاستدعاء مع تعديلاتك.",
    wasProposed: (value) => `المقترح: ${value}`,
  },
  toolCall: {
    running: "قيد التشغيل",
    done: "تم",
    failed: "فشل",
    rejected: "مرفوض",
    cancelled: "ملغى",
    input: "المدخلات",
    output: "المخرجات",
    error: "الخطأ",
    failedWithoutReason: "فشلت الأداة.",
    waiting: "في انتظار النتيجة…",
    rejectedBecause: (reason) => (reason ? `مرفوض: ${reason}` : "مرفوض."),
    cancelledBeforeDecision: "أُلغي مع تشغيله قبل أن يقرر أحد.",
    malformedAsk: "كانت أسئلة الوكيل غير سليمة؛ طُلب منه أن يعيد المحاولة.",
    details: "التفاصيل",
  },
  composer: {
    label: "رسالة",
    placeholder: "اكتب رسالة…",
    waitingPlaceholder: "أجب عن أسئلة الوكيل أعلاه للمتابعة",
    send: "إرسال",
    stop: "إيقاف",
    notSent: () => "لم تُرسل رسالتك. تحقق من الاتصال ثم أعد المحاولة.",
    refused: (detail) => `لم تُقبل رسالتك: ${detail}`,
    retry: "أعد الإرسال",
    dismiss: "إغلاق",
  },
  chat: {
    title: "الوكيل",
    conversation: "المحادثة",
    empty: "لا رسائل بعد. قل ما تحتاجه وسيتولى الوكيل الأمر.",
    start: "قل ما تحتاجه. إن كانت لدى الوكيل أسئلة فسيطرحها أولًا، واختياراته محددة مسبقًا.",
    loadFailed: () => "تعذر تحميل هذه المحادثة. تحقق من الاتصال ثم أعد تحميل الصفحة.",
    replyFailed: () => "توقف الرد قبل أن يكتمل. تحقق من الاتصال ثم أرسل مجددًا.",
    runFailed: ({ code, errorId }) => {
      // The id is Latin text inside a right-to-left sentence: isolated, so it reads whole.
      const id = errorId ? ` إذا تكرر ذلك، فاذكر رمز الخطأ \u2068${errorId}\u2069.` : "";
      switch (code) {
        case "model-timeout":
          return `استغرق نموذج الوكيل وقتًا طويلًا في الرد، لذا توقف الرد. أرسل رسالتك مجددًا.${id}`;
        case "model-failed":
          return `تعذر على نموذج الوكيل الرد، لذا توقف الرد. أرسل رسالتك مجددًا.${id}`;
        case "step-limit":
          return `واصل الوكيل العمل دون الوصول إلى إجابة، لذا توقف. جرّب أن تسأل على خطوات أصغر.${id}`;
        case "agent-changed":
          return `تغيّر الوكيل أثناء عمله على هذا الرد، لذا توقف الرد. أرسل رسالتك مجددًا.${id}`;
        case "agent-missing":
          return `لم يعد وكيل هذه المحادثة متاحًا.${id}`;
        default:
          return `حدث خطأ في الخادم، لذا توقف الرد.${id}`;
      }
    },
    jumpToLatest: "انتقل إلى الأحدث",
    showEarlier: "اعرض الرسائل السابقة",
    loadingEarlier: "جارٍ تحميل الرسائل السابقة…",
    conversations: "المحادثات",
    newConversation: "محادثة جديدة",
    inbox: "الوارد",
    close: "إغلاق",
    you: "أنت",
    assistant: "الوكيل",
    thinking: "يفكر…",
    reasoning: "التفكير",
    waiting: "في انتظار إجابتك",
    working: "يعمل…",
    offline: "تعذّر الوصول إلى الخادم. جارٍ إعادة الاتصال…",
    reconnected: "عاد الاتصال.",
    showMore: "اعرض المزيد",
    showLess: "اعرض أقل",
    copy: "نسخ",
    copied: "تم النسخ",
    copyFailed: "تعذر النسخ",
  },
  inbox: {
    title: "في انتظارك",
    empty: "لا شيء في انتظارك.",
    waiting: (count) =>
      count.value === 0
        ? "لا شيء في انتظارك"
        : `${ar(count, { one: "طلب واحد", two: "طلبان", few: "طلبات", other: "طلبًا" })} في انتظارك`,
    questions: (count, agent) => `${ar(count, questionsAr)} من ${agent}`,
    approval: (toolName) => `هل توافق على ${toolName}؟`,
    untitled: (agent) => `محادثة مع ${agent}`,
    openConversation: "افتح المحادثة",
    answered: "تمت الإجابة. يتابع الوكيل في المحادثة.",
    decided: "تم القرار. يتابع الوكيل في المحادثة.",
    skipped: "تم التخطي: اختيارات الوكيل قائمة. يتابع في المحادثة.",
    skippedToAgent: "تم التخطي: يقرر الوكيل. يتابع في المحادثة.",
  },
  threads: {
    empty: "لا محادثات بعد.",
    older: "محادثات أقدم",
    waiting: (count) => `${count.text} في الانتظار`,
  },
  call: {
    loading: "جارٍ الفتح…",
    notFound: "لا شيء في انتظارك عبر هذا الرابط. ربما يخص شخصًا آخر، أو لم يعد موجودًا.",
    failed: "تعذّر فتح هذا الآن. حاول مرة أخرى بعد قليل.",
    tryAgain: "أعد المحاولة",
    settled: (status, kind) =>
      ({
        answered: "تمت الإجابة عن هذا من قبل.",
        skipped: "تم تخطي هذا من قبل: بقيت اختيارات الوكيل.",
        approved: "تمت الموافقة على هذا من قبل.",
        rejected: "تم رفض هذا من قبل.",
        expired: kind === "approval" ? "انتهت مهلة هذا قبل أن يقرّر أحد." : "انتهت مهلة هذا قبل أن يجيب أحد.",
      })[status] ?? "لم يعد هذا ينتظر: توقفت المحادثة.",
  },
  deadline: {
    answerBy: (time, left) => `أجب قبل ${time} (بقي ${left}). إن لم يُجب أحد حتى ذلك الحين، يتوقف الوكيل.`,
    decideBy: (time, left) => `قرّر قبل ${time} (بقي ${left}). إن لم يقرّر أحد حتى ذلك الحين، يتوقف الوكيل.`,
    questionsExpired: (time) => `انتهت مهلة هذه الأسئلة عند ${time} قبل أن يجيب أحد، لذلك توقف الوكيل.`,
    approvalExpired: (time) => `انتهت مهلة هذا عند ${time} قبل أن يقرّر أحد، لذلك توقف الوكيل.`,
    questionsLapsed: (time) => `انتهت مهلة هذه الأسئلة عند ${time} ولم يعد من الممكن الإجابة عنها.`,
  },
};
