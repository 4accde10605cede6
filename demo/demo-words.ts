/** The demo page's own words around the chat (its header, its agent list), in each of its languages. */
export interface DemoWords {
  /** The line under the product name, on a wide screen. */
  tagline: string;
  /** While the agents load. */
  loadingAgents: string;
  /** The agents could not be read; `detail` is why. */
  agentsFailed: (detail: string) => string;
  /** The agent list's heading, and the dialog's name on a phone. */
  agents: string;
  /** The button that opens the agents on a phone: `Agent: refactorer`. */
  agentButton: (name: string) => string;
  /** The theme switch. */
  darkMode: string;
  /** What an agent asks: an intake of `count` questions, once per thread or every turn. */
  intake: (count: number, everyTurn: boolean) => string;
  /** An agent whose model asks when it needs to. */
  asksThroughModel: string;
  /** An agent that asks approval before the tools named. */
  approvalsBefore: (tools: string) => string;
  /** An agent that asks nothing. */
  asksNothing: string;
  /** One line on what each demo agent shows, by name. */
  summaries: Record<string, string>;
}

/** English. */
export const englishWords: DemoWords = {
  tagline:
    "The agent asks a few questions before it starts, with answers pre-picked so confirming is enough.",
  loadingAgents: "Loading agents…",
  agentsFailed: (detail) => `Could not load the agents: ${detail}`,
  agents: "Demo agents",
  agentButton: (name) => `Agent: ${name}`,
  darkMode: "Dark mode",
  intake: (count, everyTurn) =>
    `Intake: ${count} question${count === 1 ? "" : "s"} ${everyTurn ? "before every turn" : "on a thread's first turn"}`,
  asksThroughModel: "Asks through the model when it needs to",
  approvalsBefore: (tools) => `Asks your approval before ${tools}`,
  asksNothing: "Asks nothing",
  summaries: {
    refactorer:
      "Asks its configured intake on the first turn of a thread: scope, tests and API, all pre-picked.",
    booking: "An intake of typed questions: a bounded number, a required email and a capped note.",
    planner: "No intake: the model calls ask itself when a request could be met several ways.",
    operator: "Runs tools: reading a status runs at once; purging a cache waits for your approval.",
  },
};

/** German. */
export const germanWords: DemoWords = {
  tagline:
    "Der Agent stellt vor dem Start ein paar Fragen, mit vorausgewählten Antworten: Bestätigen genügt.",
  loadingAgents: "Agenten werden geladen…",
  agentsFailed: (detail) => `Die Agenten konnten nicht geladen werden: ${detail}`,
  agents: "Demo-Agenten",
  agentButton: (name) => `Agent: ${name}`,
  darkMode: "Dunkles Design",
  intake: (count, everyTurn) =>
    `Vorab: ${count} ${count === 1 ? "Frage" : "Fragen"} ${everyTurn ? "vor jedem Zug" : "im ersten Zug einer Unterhaltung"}`,
  asksThroughModel: "Fragt über das Modell, wenn nötig",
  approvalsBefore: (tools) => `Fragt vor ${tools} nach Ihrer Erlaubnis`,
  asksNothing: "Fragt nichts",
  summaries: {
    refactorer: "Stellt im ersten Zug seine Vorab-Fragen: Umfang, Tests und API, alle vorausgewählt.",
    booking: "Vorab-Fragen mit Eingaben: eine begrenzte Zahl, eine Pflicht-E-Mail und eine kurze Notiz.",
    planner: "Keine Vorab-Fragen: Das Modell fragt selbst, wenn eine Bitte mehrdeutig ist.",
    operator: "Führt Werkzeuge aus: Status lesen sofort, Cache leeren erst mit Ihrer Erlaubnis.",
  },
};

/** Arabic, right to left. */
export const arabicWords: DemoWords = {
  tagline: "يطرح الوكيل بضعة أسئلة قبل أن يبدأ، والإجابات مختارة مسبقًا فيكفي التأكيد.",
  loadingAgents: "جارٍ تحميل الوكلاء…",
  agentsFailed: (detail) => `تعذّر تحميل الوكلاء: ${detail}`,
  agents: "وكلاء العرض",
  agentButton: (name) => `الوكيل: ${name}`,
  darkMode: "الوضع الداكن",
  intake: (count, everyTurn) =>
    `أسئلة مسبقة: ${count.toLocaleString("ar-EG")} ${everyTurn ? "قبل كل دور" : "في أول دور من المحادثة"}`,
  asksThroughModel: "يسأل عبر النموذج عند الحاجة",
  approvalsBefore: (tools) => `يطلب موافقتك قبل ${tools}`,
  asksNothing: "لا يسأل شيئًا",
  summaries: {
    refactorer: "يطرح أسئلته المسبقة في أول دور: النطاق والاختبارات والواجهة، وكلها مختارة مسبقًا.",
    booking: "أسئلة مسبقة بإدخالات: عدد محدود وبريد إلكتروني مطلوب وملاحظة قصيرة.",
    planner: "لا أسئلة مسبقة: يسأل النموذج بنفسه حين يحتمل الطلب أكثر من طريقة.",
    operator: "يشغّل أدوات: قراءة الحالة فورًا، وتفريغ ذاكرة التخزين بعد موافقتك.",
  },
};
