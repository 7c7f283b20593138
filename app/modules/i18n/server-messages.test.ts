/**
 * The server's messages on an Arabic screen (docs/decisions/025-english-and-arabic.md): fixed texts by their
 * English, messages built from values read back from their English template and rendered with ar.json's,
 * Arabic's plural forms chosen by the count. English never changes.
 */
import { describe, expect, it } from "vitest";
import { messages as m } from "../messages.ts";
import { messageTemplates, translateMessage } from "./server-messages.ts";

const ar = (text: string) => translateMessage(text, "ar");
/** A user's text inside Arabic, isolated so it keeps its own direction. */
const bdi = (text: string) => `\u2068${text}\u2069`;
const COUNTS = [0, 1, 2, 3, 11, 100];

/** Every message built from values, with sample values: the Arabic it gives. */
const samples: Record<string, [english: string, arabic: string]> = {
  "messages.wait.seconds": [m.wait.seconds(5), "5 ثوانٍ"],
  "messages.wait.minutes": [m.wait.minutes(1), "دقيقة واحدة"],
  "messages.login.throttled": [m.login.throttled(42), "محاولات فاشلة كثيرة. حاول مجددًا بعد 42 ثانية."],
  "messages.login.accountThrottled": [
    m.login.accountThrottled(10),
    "محاولات فاشلة كثيرة على هذا الحساب. حاول مجددًا بعد 10 ثوانٍ؛ ومن شبكة سبق أن سُجّل منها الدخول إلى هذا الحساب يمكنك الدخول الآن.",
  ],
  "messages.scoring.range": [m.scoring.range(10), "يجب أن تكون العلامة بين 0 و10"],
  "messages.judging.feedbackSaved": [m.judging.feedbackSaved([1, 3, 4]), "نُشرت ملاحظات التحكيم للبوابات 1, 3, 4"],
  "messages.judging.feedbackPublished": [m.judging.feedbackPublished([2]), "المنشور الآن: البوابة 2."],
  "messages.rubric.badLine": [m.rubric.badLine(4), "السطر 4 من سُلّم التقييم: اكتب «الاسم | الوزن | الحد الأقصى»، مثل «الوضوح | 2 | 10» (الوزن من 1 إلى 100، والحد الأقصى من 1 إلى 1000)"],
  "messages.rubric.duplicate": [m.rubric.duplicate("Clarity"), `يذكر سُلّم التقييم «${bdi("Clarity")}» مرتين`],
  "messages.participant.submissionsCloseAt": [m.participant.submissionsCloseAt("18:00"), "تُغلق التسليمات في 18:00."],
  "messages.participant.submissionsClosedAt": [m.participant.submissionsClosedAt("18:00"), "أُغلقت التسليمات في 18:00. ما أرسله فريقك ما زال قيد التحكيم."],
  "messages.participant.feedbackJudge": [m.participant.feedbackJudge(2), "الحَكَم 2"],
  "messages.validation.tooLong": [m.validation.tooLong(40), "طويل جدًا (40 حرفًا على الأكثر)"],
  "messages.dashboard.warn": [m.dashboard.warn(m.dashboard.teamNotFound), "⚠️ هذا الفريق لم يعد موجودًا"],
  "messages.dashboard.teamHasMembers": [m.dashboard.teamHasMembers(2), "ما زال في هذا الفريق عضوان: انقلهما أو احذفهما أولًا"],
  "messages.dashboard.sessionsEnded": [m.dashboard.sessionsEnded(1), "انتهت جلسة واحدة: خرج ذلك المتصفح من الحساب"],
  "messages.dashboard.statusChanged": [m.dashboard.statusChanged("Reverse me", "inactive"), `أصبح التحدي ${bdi("Reverse me")} غير مفعّل`],
  "messages.dashboard.gateSaved": [m.dashboard.gateSaved(3), "تمّ حفظ البوابة 3"],
  "messages.dashboard.loadFailed": [m.dashboard.loadFailed(m.errors.server), `خطأ في تحميل الفرق: ${ar(m.errors.server)}`],
  "messages.audit.loadFailed": [m.audit.loadFailed(m.errors.unavailable), `تعذّر تحميل سجل التدقيق: ${ar(m.errors.unavailable)}`],
  "messages.audit.deletedTeam": [m.audit.deletedTeam(7), "الفريق #7 (محذوف)"],
  "messages.audit.deletedUser": [m.audit.deletedUser(8), "المستخدم #8 (محذوف)"],
  "messages.registration.rateLimited": [m.registration.rateLimited(600), "تسجيلات كثيرة من شبكتك. حاول مجددًا بعد 10 دقائق."],
  "messages.registration.tooManySelected": [m.registration.tooManySelected(50), "اختر 50 تسجيلًا على الأكثر في كل مرة"],
  "messages.registration.accountsCreated": [m.registration.accountsCreated(3), "أُنشئت 3 حسابات"],
  "messages.api.methodNotAllowed": [m.api.methodNotAllowed("GET, POST"), `هذا المسار لا يقبل إلا ${bdi("GET, POST")}.`],
  "messages.api.unsupportedMediaType": [m.api.unsupportedMediaType("application/json"), `أرسل المحتوى بصيغة ${bdi("application/json")}.`],
  "messages.awards.pointsRange": [m.awards.pointsRange("1,000"), "1,000 نقطة على الأكثر، موجبة أو سالبة"],
  "messages.awards.reasonTooLong": [m.awards.reasonTooLong(500), "السبب طويل جدًا (500 حرف على الأكثر)"],
  "messages.selfTeams.created": [m.selfTeams.created("Falcons"), `أُنشئ الفريق ${bdi("Falcons")}: أنت قائده.`],
  "messages.selfTeams.joined": [m.selfTeams.joined("Falcons"), `انضممت إلى ${bdi("Falcons")}.`],
  "messages.selfTeams.teamFull": [m.selfTeams.teamFull("Falcons", 5), `${bdi("Falcons")} ممتلئ: للفريق 5 أعضاء على الأكثر.`],
  "messages.selfTeams.tooManyInvites": [m.selfTeams.tooManyInvites(10), "للفريق 10 دعوات سارية على الأكثر: ألغِ واحدة أولًا."],
  "messages.selfTeams.tooManyTries": [m.selfTeams.tooManyTries(120), "جرّبت رموزًا كثيرة. حاول مرة أخرى بعد دقيقتين."],
  "messages.integrity.starterFilesFull": [m.integrity.starterFilesFull(20), "يتّسع التحدي لـ 20 ملفًا بداية على الأكثر: احذف واحدًا أولًا"],
  "messages.passwordSignIn.participantsUseProvider": [m.passwordSignIn.participantsUseProvider("Demo University"), `يسجّل المشاركون الدخول في هذه الفعالية عبر ${bdi("Demo University")}، لا بكلمة مرور.`],
  "messages.integrity.starterTooLong": [m.integrity.starterTooLong(100_000), "الشيفرة الأولية طويلة جدًا (100000 حرف على الأكثر)"],
  "messages.imports.fileTooLarge": [m.imports.fileTooLarge(5_000_000), "الملف أكبر من 5 MB"],
  "messages.imports.unreadableCsv": [m.imports.unreadableCsv("Quote not closed"), `تعذّرت قراءة الملف بصيغة CSV: ${bdi("Quote not closed")}`],
  "messages.imports.unreadableJson": [m.imports.unreadableJson("Unexpected token"), `تعذّرت قراءة الملف بصيغة JSON: ${bdi("Unexpected token")}`],
  "messages.imports.missingColumns": [m.imports.missingColumns(["name", "role"]), `يحتاج الملف إلى العمودين ${bdi("name, role")}`],
  "messages.imports.unknownColumns": [m.imports.unknownColumns(["colour"], ["name", "role"]), `عمود غير معروف: ${bdi("colour")} (المعروفة: ${bdi("name, role")})`],
  "messages.imports.tooManyRows": [m.imports.tooManyRows(2000), "2000 سطر على الأكثر في كل ملف: قسّمه"],
  "messages.imports.duplicateInFile": [m.imports.duplicateInFile(12), "الاسم نفسه موجود أيضًا في السطر 12"],
  "messages.imports.duplicateAddressInFile": [m.imports.duplicateAddressInFile(4), "البريد الإلكتروني نفسه في السطر 4 أيضًا"],
  "messages.mail.linkQueued": [m.mail.linkQueued("amina@example.org"), `رابط اختيار كلمة المرور في طريقه إلى ${bdi("amina@example.org")}`],
  "messages.mail.confirmLinkQueued": [m.mail.confirmLinkQueued("amina@example.org"), `يسجّل المشاركون الدخول عبر مزوّد الهوية: رابط تأكيد العنوان في طريقه إلى ${bdi("amina@example.org")}`],
  "messages.mail.addressConfirmed": [m.mail.addressConfirmed("Demo University"), `تأكّد عنوانك. سجّل الدخول عبر ${bdi("Demo University")}.`],
  "messages.mail.resetThrottled": [m.mail.resetThrottled(600), "طلبات كثيرة من شبكتك. حاول مرة أخرى بعد 10 دقائق."],
  "messages.imports.rowsInvalid": [m.imports.rowsInvalid(1), "في سطر واحد أخطاء: لم يُستورد شيء. صحّح الملف ثم اعرضه من جديد."],
  "messages.imports.accountsImported": [m.imports.accountsImported(11), "استُورد 11 حسابًا"],
  "messages.imports.challengesImported": [m.imports.challengesImported(2), "استُورد تحدّيان"],
  "messages.imports.prerequisiteUnknown": [m.imports.prerequisiteUnknown("Cipher"), `لا يوجد تحدٍّ اسمه «${bdi("Cipher")}»، لا محفوظًا ولا في هذا الملف`],
  "messages.imports.prerequisiteAmbiguous": [m.imports.prerequisiteAmbiguous("Cipher"), `عدّة تحديات اسمها «${bdi("Cipher")}»: اذكر تحديًا لا يشاركه غيره اسمه`],
  "messages.imports.prerequisitesTooMany": [m.imports.prerequisitesTooMany(20), "20 متطلّبًا سابقًا على الأكثر"],
  "messages.errors.bodyTooLarge": [m.errors.bodyTooLarge(64 * 1024), "الطلب أكبر من 64 KB، وهو أقصى ما يقبله هذا النموذج أو هذا الاستدعاء. لم يُحفظ شيء."],
  "messages.errors.methodNotAllowed": [m.errors.methodNotAllowed("TRACE", "GET, HEAD"), `هذا العنوان لا يقبل طلبات ${bdi("TRACE")}؛ يقبل ${bdi("GET, HEAD")}. لم يُنفَّذ شيء.`],
  "messages.scoreboardFeed.limitInvalid": [m.scoreboardFeed.limitInvalid(500), "يجب أن يكون limit عددًا صحيحًا من 1 إلى 500"],
  "messages.scoreboardFeed.offsetInvalid": [m.scoreboardFeed.offsetInvalid(10000), "يجب أن يكون offset عددًا صحيحًا من 0 إلى 10000"],
  "messages.divisions.nameTooLong": [m.divisions.nameTooLong(3), "لاسم القسم 3 أحرف على الأكثر"],
  "messages.divisions.onLine": [m.divisions.onLine(2, m.divisions.nameTooLong(60)), "السطر 2: لاسم القسم 60 حرفًا على الأكثر"],
  "messages.divisions.duplicate": [m.divisions.duplicate("Lycée", "LYCEE"), `«${bdi("Lycée")}» هو القسم نفسه «${bdi("LYCEE")}» (لا تُميَّز الأحرف الكبيرة من الصغيرة، والأحرف المتشابهة تُعدّ حرفًا واحدًا)`],
  "messages.divisions.tooMany": [m.divisions.tooMany(20), "20 قسمًا على الأكثر"],
  "messages.divisions.inUse": [m.divisions.inUse("Juniors", 4), `في ${bdi("Juniors")} 4 فرق: انقلها إلى قسم آخر في صفحة الفرق قبل حذف هذا القسم`],
  "messages.divisions.saved": [m.divisions.saved([]), "تمّ حفظ الأقسام: لا قسم، لوحة واحدة لكل الفرق"],
  "messages.divisions.unknown": [m.divisions.unknown(["Juniors", "Seniors"]), `اختر قسمًا من قائمة الحدث: ${bdi("Juniors, Seniors")}`],
  "messages.divisions.notOnBoard": [m.divisions.notOnBoard("Kids"), `لا يوجد قسم اسمه «${bdi("Kids")}»: تُعرض كل الفرق.`],
  "messages.divisions.conflict": [m.divisions.conflict("Owls", null, 5), `السطر 5 يضع ${bdi("Owls")} في القسم: لا قسم`],
  "messages.teamSize.full": [m.teamSize.full("Owls", 1), `${bdi("Owls")} ممتلئ: للفريق عضو واحد على الأكثر (الإعدادات ← حجم الفريق). اختر فريقًا آخر.`],
  "messages.teamSize.saved": [m.teamSize.saved(5), "تمّ حفظ الحد الأقصى لحجم الفريق: 5 أعضاء على الأكثر في كل فريق"],
  "messages.teamSize.registrationLabel": [m.teamSize.registrationLabel(5), "اسم الفريق (يضمّ الفريق 5 أعضاء على الأكثر)"],
  "messages.threads.claimedByAnother": [m.threads.claimedByAnother(m.threads.someoneElse), "منظّم آخر يجيب عن هذه المحادثة."],
  "messages.threads.adminTakeOver": [m.threads.adminTakeOver("Samira"), `${bdi("Samira")} يتولّى هذه المحادثة. بصفتك مديرًا يمكنك أن تتولّاها أو تجيب عنها أو تغلقها.`],
  "messages.threads.teamWaitingLimit": [m.threads.teamWaitingLimit(20), "بلغ فريقك الحد الأقصى للأسئلة والطلبات التي تنتظر ردّ المنظّمين (20): انتظر ردًّا قبل أن ترسل غيرها."],
  "messages.threads.userWaitingLimit": [m.threads.userWaitingLimit(10), "بلغت الحد الأقصى للأسئلة والطلبات التي تنتظر ردّ المنظّمين (10): انتظر ردًّا قبل أن ترسل غيرها."],
  "messages.hints.lineShape": [m.hints.lineShape(2), "التلميحات، السطر 2: اكتب الكلفة ثم خطًّا عموديًّا ثم التلميح (25 | انظر في السجلّات)."],
  "messages.hints.lineCost": [m.hints.lineCost(3), "التلميحات، السطر 3: الكلفة عدد نقاط من 0 إلى 100000، بمنزلتين عشريتين على الأكثر."],
  "messages.hints.lineText": [m.hints.lineText(4), "التلميحات، السطر 4: نص التلميح من حرف واحد إلى 2000 حرف."],
  "messages.hints.tooMany": [m.hints.tooMany(10), "عدد التلميحات 10 على الأكثر."],
  "messages.hints.unlocked": [m.hints.unlocked(25), "فُتح التلميح: خُصمت 25 نقطة من فريقك."],
  "messages.hints.removeUnlocked": [m.hints.removeUnlocked(2), "فتح فريقٌ التلميح 2: لا يمكن حذفه (غيّر نصه بدلًا من ذلك)."],
  "messages.flags.correct": [m.flags.correct(300), "إجابة صحيحة! حلّ فريقك هذا التحدي: 300 نقطة."],
  "messages.flags.incorrectAttemptsLeft": [m.flags.incorrectAttemptsLeft(2), "إجابة خاطئة. بقيت محاولتان."],
  "messages.flags.incorrectWait": [m.flags.incorrectWait(42), "إجابة خاطئة. إجابات خاطئة كثيرة: انتظر 42 ثانية قبل الإجابة التالية."],
  "messages.flags.wait": [m.flags.wait(125), "إجابات خاطئة كثيرة: انتظر 3 دقائق قبل الإجابة التالية."],
  "messages.flags.matchedAnswer": [m.flags.matchedAnswer(2), "تطابق الإجابة 2."],
  "messages.code.testsTooLarge": [m.code.testsTooLarge(64), "لا يتجاوز أرشيف الاختبارات 64 ميغابايت."],
  "messages.code.testsRefused": [m.code.testsRefused('"a/../b" climbs out of the archive (..).'), "رُفض أرشيف الاختبارات ولم يتغير شيء: \u2068\"a/../b\" climbs out of the archive (..).\u2069"],
  "messages.code.testsSaved": [m.code.testsSaved(12, 3), "حُفظت الاختبارات: 12 اختبارات في 3 مهام فرعية."],
  "messages.code.checkerTooLarge": [m.code.checkerTooLarge(64), "لا يتجاوز المدقِّق 64 كيلوبايت."],
  "messages.code.rejudged": [m.code.rejudged(12), "أُعيدت تشغيلات إلى طابور التحكيم: 12. يبقى لكلٍّ حكمه السابق حتى الجديد."],
  "messages.code.sourceTooLarge": [m.code.sourceTooLarge(64), "لا يتجاوز البرنامج 64 كيلوبايت."],
  "messages.code.tooManyQueued": [m.code.tooManyQueued(3), "لدى فريقك 3 برامج تنتظر التحكيم: انتظر حكمًا قبل أن ترسل غيرها."],
  "messages.code.tooManyPerMinute": [m.code.tooManyPerMinute(6), "أرسل فريقك 6 برامج في الدقيقة الأخيرة: انتظر دقيقة قبل أن ترسل غيرها."],
  "messages.predictions.dailyLimit": [m.predictions.dailyLimit(5), "أرسل فريقك ملفات اليوم الـ5 لهذا التحدي: أرسل غدًا (بأيام الفعالية)."],
  "messages.predictions.fileTooLarge": [m.predictions.fileTooLarge(64), "للملف 64 ميغابايت على الأكثر."],
  "messages.predictions.labelsSaved": [m.predictions.labelsSaved(1000), "حُفظت التسميات: 1000 صفًّا."],
  "messages.flagAnswers.emptyValue": [m.flagAnswers.emptyValue(2), "الإجابات، السطر 2: اكتب الإجابة بعد النقطتين."],
  "messages.flagAnswers.controlCharacters": [m.flagAnswers.controlCharacters(3), "الإجابات، السطر 3: لا يمكن أن تحتوي الإجابة على محارف تحكّم."],
  "messages.flagAnswers.tooLong": [m.flagAnswers.tooLong(4), "الإجابات، السطر 4: للإجابة 1024 بايت على الأكثر."],
  "messages.flagAnswers.onePerTeam": [m.flagAnswers.onePerTeam(5), "الإجابات، السطر 5: للتحدي إجابة واحدة خاصة بكل فريق على الأكثر."],
  "messages.flagAnswers.badPattern": [m.flagAnswers.badPattern(2, "missing )"), `الإجابات، السطر 2: تعذّر تصريف هذا النمط (${bdi("missing )")}).`],
  "messages.flagAttempts.loadFailed": [m.flagAttempts.loadFailed(m.errors.unavailable), `تعذّر تحميل المحاولات: ${ar(m.errors.unavailable)}`],
  "messages.flagAttempts.reset": [m.flagAttempts.reset("Owls", "Warm-up", 2), `يمكن لـ ${bdi("Owls")} الإجابة عن ${bdi("Warm-up")} من جديد: لم تعد إجابتان خاطئتان محسوبتين.`],
  "messages.realtime.tooManyForSession": [m.realtime.tooManyForSession(10), "اتصالات مباشرة كثيرة لتسجيل الدخول هذا (10 على الأكثر): أغلق تبويبًا ثم أعد تحميل الصفحة."],
  "messages.realtime.tooManyForUser": [m.realtime.tooManyForUser(20), "اتصالات مباشرة كثيرة لهذا الحساب (20 على الأكثر): أغلق تبويبًا ثم أعد تحميل الصفحة."],
  "messages.threads.replyNotification": [m.threads.replyNotification("نعم، الملف كافٍ"), `أجاب أحد المنظّمين: ${bdi("نعم، الملف كافٍ")}`],
};

describe("server messages in Arabic", () => {
  it("finds a fixed text by its English", () => {
    expect(ar(m.participant.required)).toBe("هذا الحقل مطلوب");
    expect(ar("Not one of ours")).toBe("Not one of ours");
  });

  it("has a sample here for every message built from values", () => {
    expect(Object.keys(samples).sort()).toEqual([...messageTemplates.keys()].sort());
  });

  it.each(Object.entries(samples))("%s", (_, [english, arabic]) => {
    expect(ar(english)).toBe(arabic);
    expect(translateMessage(english, "en")).toBe(english);
  });

  it("chooses Arabic's plural form by the count (0, 1, 2, 3, 11, 100)", () => {
    expect(COUNTS.map((n) => ar(m.imports.accountsImported(n)))).toEqual([
      "لم يُستورد أي حساب",
      "استُورد حساب واحد",
      "استُورد حسابان",
      "استُوردت 3 حسابات",
      "استُورد 11 حسابًا",
      "استُورد 100 حساب",
    ]);
    expect(COUNTS.map((n) => ar(m.dashboard.sessionsEnded(n)))).toEqual([
      "لم تنتهِ أي جلسة",
      "انتهت جلسة واحدة: خرج ذلك المتصفح من الحساب",
      "انتهت جلستان: خرج ذانك المتصفحان من الحساب",
      "انتهت 3 جلسات: خرجت تلك المتصفحات من الحساب",
      "انتهت 11 جلسةً: خرجت تلك المتصفحات من الحساب",
      "انتهت 100 جلسة: خرجت تلك المتصفحات من الحساب",
    ]);
    expect(COUNTS.map((n) => ar(m.login.throttled(n * 60)))).toEqual([
      "محاولات فاشلة كثيرة. حاول مجددًا بعد ثانية واحدة.",
      "محاولات فاشلة كثيرة. حاول مجددًا بعد دقيقة واحدة.",
      "محاولات فاشلة كثيرة. حاول مجددًا بعد دقيقتين.",
      "محاولات فاشلة كثيرة. حاول مجددًا بعد 3 دقائق.",
      "محاولات فاشلة كثيرة. حاول مجددًا بعد 11 دقيقة.",
      "محاولات فاشلة كثيرة. حاول مجددًا بعد 100 دقيقة.",
    ]);
    // A list's length is its count.
    expect([[], [1], [1, 2], [1, 2, 3]].map((gates) => ar(m.judging.feedbackSaved(gates)))).toEqual([
      "ملاحظات التحكيم غير منشورة لأي بوابة",
      "نُشرت ملاحظات التحكيم للبوابة 1",
      "نُشرت ملاحظات التحكيم للبوابتين 1, 2",
      "نُشرت ملاحظات التحكيم للبوابات 1, 2, 3",
    ]);
  });

  it("gives every counted message an Arabic form for 0, 1, 2, 3, 11 and 100, with the number when it is written", () => {
    const counted: Array<(n: number) => string> = [
      m.wait.seconds, m.wait.minutes, m.validation.tooLong, m.dashboard.teamHasMembers, m.dashboard.sessionsEnded,
      m.registration.tooManySelected, m.registration.accountsCreated, m.awards.reasonTooLong, m.imports.tooManyRows,
      m.imports.rowsInvalid, m.imports.accountsImported, m.imports.challengesImported, m.divisions.nameTooLong,
      m.divisions.tooMany, (n) => m.divisions.inUse("Juniors", n), (n) => m.teamSize.full("Owls", n), m.teamSize.saved,
      m.teamSize.registrationLabel, (n) => m.flagAttempts.reset("Owls", "Warm-up", n),
    ];
    for (const message of counted) {
      const arabic = COUNTS.map((n) => ar(message(n)));
      for (const [index, text] of arabic.entries()) {
        expect(text, message(COUNTS[index])).toMatch(/[\u0600-\u06ff]/);
        expect(text).not.toMatch(/\{\{|\}\}/);
        if (COUNTS[index] >= 3) expect(text).toContain(String(COUNTS[index]));
      }
      // One, two and few are three different words.
      expect(new Set(arabic.slice(1, 4)).size, message(1)).toBe(3);
    }
  });

  it("keeps English exactly as messages.ts writes it", () => {
    expect(m.login.throttled(0.2)).toBe("Too many failed attempts. Try again in 1 seconds.");
    expect(m.login.throttled(61)).toBe("Too many failed attempts. Try again in 2 minutes.");
    expect(m.judging.feedbackSaved([])).toBe("Judging feedback is published for no gate");
    expect(m.judging.feedbackSaved([1, 3])).toBe("Judging feedback published for gates 1, 3");
    expect(m.dashboard.teamHasMembers(1)).toBe("This team still has 1 member: move or delete them first");
    expect(m.imports.unknownColumns(["a", "b"], ["name"])).toBe("Unknown columns a, b (known: name)");
    expect(m.divisions.conflict("Owls", null, 2)).toBe("Row 2 puts Owls in no division");
    expect(m.divisions.inUse("Kids", 1)).toBe("1 team is in Kids: move it to another division on the Teams page before removing it");
    expect(m.errors.bodyTooLarge(65536)).toBe("The request is larger than 64 KB, the most this form or call accepts. Nothing was saved.");
    for (const [english] of Object.values(samples)) expect(translateMessage(english, "en")).toBe(english);
  });

  describe("hostile values", () => {
    it("takes a value with regular-expression or i18next characters as plain text", () => {
      const title = "a+b (c|d) [x]* $1 $& ^.$ \\d {{title}} $t(messages.scoring.saved)";
      expect(ar(m.dashboard.statusChanged(title, "active"))).toBe(`أصبح التحدي ${bdi(title)} مفعّلًا`);
      expect(ar(m.rubric.duplicate("{{name}}"))).toBe(`يذكر سُلّم التقييم «${bdi("{{name}}")}» مرتين`);
    });

    it("does not take a value that looks like another message for that message", () => {
      // A team named like a toast: it stays the team's name, untranslated, inside the Arabic.
      expect(ar(m.teamSize.full("Gate 3 saved", 5))).toBe(`${bdi("Gate 3 saved")} ممتلئ: للفريق 5 أعضاء على الأكثر (الإعدادات ← حجم الفريق). اختر فريقًا آخر.`);
      expect(ar(m.dashboard.statusChanged("Old is now inactive", "active"))).toBe(`أصبح التحدي ${bdi("Old is now inactive")} مفعّلًا`);
      expect(ar(m.divisions.conflict("Owls", "no division", 2))).toBe(`السطر 2 يضع ${bdi("Owls")} في القسم: لا قسم`);
      expect(ar(m.threads.claimedByAnother("Score saved"))).toBe(`${bdi("Score saved")} يجيب عن هذه المحادثة.`);
      // A name that is another template's English is a name, not that message.
      expect(ar(m.rubric.duplicate(m.dashboard.gateSaved(2)))).toBe(`يذكر سُلّم التقييم «${bdi("Gate 2 saved")}» مرتين`);
    });

    it("leaves English that no template writes as it is", () => {
      for (const text of ["1 accounts imported", "This team still has 5 member: move or delete them first", "Gate 3 saved!", "Judging feedback published for gates 1", "x".repeat(5000)]) {
        expect(ar(text)).toBe(text);
      }
    });
  });
});
