/**
 * Every user-facing message in one place. The original platform's texts are kept verbatim, its
 * Arabic dashboard toasts included; the rest are ours, short and plain. A message built from values is a
 * `template` (app/modules/message-template.ts): its English here, its Arabic in app/locales/ar.json.
 */
import { template } from "./message-template.ts";

/** Shared by the registration form and every other over-long field. */
const tooLong = template("Too long ({{count}} characters at most)", (count: number) => ({ count }));

/** How long to wait (formatWait): read back and translated inside the messages that hold it. */
const waitSeconds = template("{{count}} seconds", (count: number) => ({ count }));
const waitMinutes = template({ one: "1 minute", other: "{{count}} minutes" }, (count: number) => ({ count }));
const wait = [waitSeconds, waitMinutes];
// What a value stands for when it has none (a challenge's status, a team without a division, a thread nobody holds).
const challengeStatus = { active: "active", inactive: "inactive" };
const noDivision = "no division";
const someoneElse = "another organiser";
const emailInvalid = "Enter a valid email address";

export const messages = {
  // How long to wait, inside the messages that say it (formatWait).
  wait: { seconds: waitSeconds, minutes: waitMinutes },
  login: {
    emptyFields: "Please fill all fields",
    invalidCredentials: "Invalid username or password",
    generic: "Something went wrong",
    throttled: template("Too many failed attempts. Try again in {{wait}}.", (retryAfterSeconds: number) => ({ wait: formatWait(retryAfterSeconds) }), {
      nested: { wait },
    }),
    // Attempts at one account from every address together (login-throttle.server.ts).
    accountThrottled: template(
      "Too many failed attempts at this account. Try again in {{wait}}; from a network this account has signed in from before, you can sign in now.",
      (retryAfterSeconds: number) => ({ wait: formatWait(retryAfterSeconds) }),
      { nested: { wait } },
    ),
    // The first page after a login that ended the user's oldest sessions (SESSIONS_PER_USER).
    oldestSessionEnded: "You were signed in on too many devices; the oldest sign-in was ended.",
  },
  // Sign-in with the organisers' identity provider (app/modules/auth/oidc.server.ts, docs/domain.md).
  oidc: {
    failed: "The sign-in with your organisation's account did not complete. Please try again.",
    cancelled: "The sign-in was cancelled at your organisation's sign-in page.",
    unavailable: "Your organisation's sign-in cannot be reached right now. Try again in a moment, or sign in with your username and password.",
    unverified: "Your organisation has not confirmed your e-mail address, so no account here can be matched to it. Ask the organisers, or sign in with your username and password.",
    noAccount: "No account here matches your organisation's account. Ask the organisers for one, or sign in with your username and password.",
    staffAccount: "This account signs in with its username and password only.",
    boundElsewhere: "This account is already linked to another person at your organisation. Sign in with your username and password, or ask the organisers.",
  },
  // A Socket.IO connection refused at its handshake (SOCKETS_PER_SESSION, SOCKETS_PER_USER): connect_error's message.
  realtime: {
    tooManyForSession: template("Too many live connections for this sign-in ({{limit}} at most): close a tab, then reload.", (limit: number) => ({ limit })),
    tooManyForUser: template("Too many live connections for this account ({{limit}} at most): close a tab, then reload.", (limit: number) => ({ limit })),
  },
  scoring: {
    required: "Please enter a score",
    notANumber: "The score must be a number",
    decimals: "Use at most 2 decimals",
    range: template("The score must be between 0 and {{points}}", (points: number) => ({ points })),
    commentTooLong: "The comment is too long (2000 characters at most)",
    submissionNotFound: "This submission no longer exists",
    saved: "Score saved",
    changedWhileScoring: "The team sent a new version while you were scoring: look at it, then score again.",
    rubricRequired: "This challenge is scored per criterion: give every criterion a score in the judging workspace.",
  },
  judging: {
    judgesPerSubmission: "Choose every judge, or 1 to 20 judges",
    needsFinal: "Set the final countdown first: judging settings are saved with the event's settings.",
    saved: "Judging settings saved",
    assignmentsSaved: "Assignment saved",
    feedbackSaved: template(
      { zero: "Judging feedback is published for no gate", one: "Judging feedback published for gate {{gates}}", other: "Judging feedback published for gates {{gates}}" },
      (gates: readonly number[]) => ({ gates }),
      { countOf: "gates" },
    ),
    // The settings form's line of what is published now (the only confirmation without JavaScript).
    feedbackPublished: template(
      { zero: "Published now: no gate.", one: "Published now: gate {{gates}}.", other: "Published now: gates {{gates}}." },
      (gates: readonly number[]) => ({ gates }),
      { countOf: "gates" },
    ),
    notAJudge: "This user is not a judge",
  },
  rubric: {
    tooMany: "A rubric has at most 20 criteria",
    badLine: template(
      'Rubric line {{line}}: write "name | weight | maximum", e.g. "Clarity | 2 | 10" (weight 1 to 100, maximum 1 to 1000)',
      (line: number) => ({ line }),
    ),
    duplicate: template('The rubric names "{{name}}" twice', (name: string) => ({ name })),
  },
  announcements: {
    created: "Announcement created successfully!",
    failed: "Failed to create announcement",
  },
  notifications: {
    sent: "Notification sent successfully",
    failed: "Failed to send notification",
  },
  freeze: {
    frozen: "The public scoreboard is frozen",
    unfrozen: "The public scoreboard is live again",
  },
  // Participant screens.
  participant: {
    fileTooLarge: "File size exceeds 200MB limit",
    emptySubmission: "Please attach a file or write a text.",
    created: "sended successfully!",
    updated: "updated successfully!",
    submitted: "Submission successful!",
    submitFailed: "Failed to submit challenge",
    errorPrefix: "Error: ",
    // The original platform showed "Error: {message}" when a gate or a challenge failed to load; the messages are ours.
    gateLoadFailed: "The gate could not be loaded. Please try again.",
    challengeLoadFailed: "The challenge could not be loaded. Please try again.",
    // The original platform's, verbatim.
    scoreboardLoadFailed: "Error loading teams",
    // The original platform's, verbatim: /status could not read the team's points again (the page keeps what it showed).
    scoresFetchFailed: "Failed to fetch submission scores",
    noTeam: "You need a team to submit.",
    challengeNotFound: "This challenge does not exist.",
    challengeInactive: "This challenge is not active.",
    challengeNoGate: "This challenge is not in a gate yet.",
    gateClosed: "This gate has not opened yet.",
    challengeNotReleased: "This challenge has not opened yet.",
    challengeLocked: "Your team must first solve the challenges this one requires.",
    submissionsClosed: "Submissions are closed: the event stopped taking answers. What your team sent is still being judged.",
    submissionsCloseAt: template("Submissions close at {{when}}.", (when: string) => ({ when })),
    submissionsClosedAt: template("Submissions closed at {{when}}. What your team sent is still being judged.", (when: string) => ({ when })),
    requestSent: "Request sent successfully, please wait!",
    requestFailed: "Failed to send mentor request",
    required: "This field is required",
    noMeal: "No upcoming meal.",
    // The original platform named this message without its text.
    noAnnouncements: "No announcements yet. You will get a notification as soon as one is posted.",
    noFile: "No file available",
    textTooLong: "The text is too long (20000 characters at most)",
    videosRequired: "Please provide at least one video URL.",
    // Judging feedback on the team's submission, once its gate's is published (docs/domain.md "Feedback to teams").
    feedbackTitle: "Judging feedback",
    feedbackJudge: template("Judge {{number}}", (number: number) => ({ number })),
    feedbackNotScored: "Not scored yet",
    feedbackRejected: "Rejected: this submission counts 0 points.",
    feedbackNoComment: "No comment.",
    feedbackEarlierVersion: "Given to an earlier version of your answer; it counts until this judge scores the new one.",
  },
  // Validation failures no form names itself (form-errors.ts).
  validation: {
    required: "This field is required",
    once: "Please send this field only once.",
    invalid: "This value is not valid.",
    choose: "Please choose one of the options.",
    tooLong,
  },
  // The home videos, saved from the dashboard home or, by an admin, on /welcome.
  videos: {
    updated: "Videos updated successfully!",
    failed: "Failed to update videos.",
  },
  // Dashboard pages.
  dashboard: {
    unexpected: "⚠️ حدث خطأ غير متوقع",
    warn: template("⚠️ {{message}}", (message: string) => ({ message }), { nested: { message: "any" } }),
    nameRequired: "Name is required",
    tooLong: "This is too long",
    teamAdded: "تمت إضافة الفريق بنجاح",
    teamEdited: "تم تعديل الفريق بنجاح",
    teamDeleted: "تم حذف الفريق بنجاح",
    teamNameTaken:
      "A team with this name already exists, or with one that looks the same (names ignore case, and letters that look alike, such as 0 and O or Latin and Cyrillic a, count as one)",
    teamNotFound: "This team no longer exists",
    teamHasSubmissions: "This team has submissions and cannot be deleted",
    teamHasMembers: template(
      { one: "This team still has {{count}} member: move or delete them first", other: "This team still has {{count}} members: move or delete them first" },
      (members: number) => ({ count: members }),
    ),
    userAdded: "تمت إضافة المستخدم بنجاح",
    userEdited: "تم تعديل المستخدم بنجاح",
    userDeleted: "تم حذف المستخدم بنجاح",
    userNameTaken:
      "A user with this name already exists, or with one that looks the same (names ignore case, and letters that look alike, such as 0 and O or Latin and Cyrillic a, count as one)",
    nameInvisible: "Names cannot contain invisible characters (zero-width spaces, direction marks and the like)",
    userNotFound: "This user no longer exists",
    sessionNotFound: "This session has already ended",
    sessionEnded: "The session has ended: that browser is signed out",
    sessionsEnded: template(
      { one: "1 session ended: that browser is signed out", other: "{{count}} sessions ended: those browsers are signed out" },
      (n: number) => ({ count: n }),
    ),
    passwordRequired: "Password is required",
    passwordTooShort: "The password needs at least 8 characters",
    roleRequired: "Role is required",
    teamRequired: "Team is required for participants",
    cannotDeleteSelf: "You cannot delete your own account",
    cannotDemoteSelf: "You cannot take the Admin role away from yourself",
    titleRequired: "Title is required",
    descriptionRequired: "Description is required",
    pointsRequired: "Points are required",
    pointsInvalid: "Points must be a whole number greater than 0",
    categoryRequired: "Category is required",
    waveInvalid: "Choose a wave from 1 to 5, or none",
    challengeAdded: "تمت إضافة التحدي بنجاح",
    challengeEdited: "Challenge updated",
    challengeDeleted: "Challenge deleted",
    challengeNotFound: "This challenge no longer exists",
    challengeHasSubmissions: "This challenge has submissions and cannot be deleted",
    challengeHasAnswers: "Teams have answered this challenge (flags, paid hints or predictions files) and it cannot be deleted",
    teamHasAnswers: "This team has answered flag challenges or unlocked paid hints and cannot be deleted",
    releaseInvalid: "Opens after: a whole number of minutes from 1 to 10,080 (a week), or empty.",
    prerequisiteSelf: "A challenge cannot require itself.",
    prerequisiteUnknown: "One of the required challenges does not exist any more: choose again.",
    prerequisiteCycle: "These prerequisites make a circle (a challenge would require itself through others): choose again.",
    attachmentType: "The attachment must be a .jpg, .png, .pdf or .docx file",
    attachmentContent: "The attachment's content does not match its extension",
    attachmentTooLarge: "The attachment is larger than 20 MB",
    attachmentReselect: "Please choose the attachment again",
    statusChanged: template("{{title}} is now {{status}}", (title: string, status: string) => ({ title, status }), {
      choices: { status: Object.values(challengeStatus) },
    }),
    challengeStatus,
    noAttachment: "This challenge has no attachment",
    videosRequired: "Please fill at least one video URL to update.",
    urlInvalid: "Please enter a full URL (https://...)",
    descriptionMissing: "Description is required",
    instantRequired: "Please enter a date and time",
    instantImpossible: "This date or time does not exist (for example 30 February or 25:00)",
    labelRequired: "Label is required",
    gateSaved: template("Gate {{number}} saved", (number: number) => ({ number })),
    finalSaved: "Final countdown saved",
    submissionsCloseSaved: "Submissions close saved",
    submissionsCloseNeedsFinal: "Set the final countdown first: submissions close at it unless you give another time.",
    mealAdded: "Meal added",
    mealRemoved: "Meal removed",
    // The original platform showed this text on both the users and the teams pages.
    loadFailed: template("Error loading teams: {{message}}", (message: string) => ({ message }), { nested: { message: "any" } }),
  },
  // The audit trail's page, CSV and API (docs/domain.md "Audit trail").
  audit: {
    teamInvalid: "Choose a team from the list",
    userInvalid: "Choose a user from the list",
    kindInvalid: "Choose a kind of change from the list",
    timeInvalid: "Enter a date and time, e.g. 2026-11-24T09:30 (the event's time zone) or 2026-11-24T08:30:00Z",
    timeImpossible: "This date or time does not exist (for example 30 February or 25:00)",
    timeSkipped: "This time does not exist in the event's time zone (the clocks skip it)",
    rangeReversed: "To must not be before From",
    cursorInvalid: "This page link is damaged: start again from the newest records",
    bothCursors: "Ask for older or for newer records, not both",
    limitInvalid: "The limit is a whole number from 1 to 200",
    filtersInvalid: "Some filters are invalid: nothing was read.",
    loadFailed: template("The audit trail could not be loaded: {{message}}", (message: string) => ({ message }), { nested: { message: "any" } }),
    none: "No record matches these filters.",
    noOlder: "No older record matches these filters.",
    // What a record is about, by the first word of its kind ("score.given" → a submission).
    subjects: {
      score: "Submission",
      submission: "Submission",
      challenge: "Challenge",
      gate: "Gate",
      event: "Event settings",
      scoreboard: "Scoreboard",
      team: "Team",
      user: "User",
      session: "Session",
      token: "API token",
      import: "Import",
      award: "Award",
      flag: "Challenge",
    } as Record<string, string>,
    deletedTeam: template("Team #{{id}} (deleted)", (id: number) => ({ id })),
    deletedUser: template("User #{{id}} (deleted)", (id: number) => ({ id })),
    via: { session: "session", token: "API token", system: "system", link: "mailed link" } as Record<string, string>,
  },
  // Public registration.
  registration: {
    // The original platform's (verbatim).
    required: "Please fill in all required fields.",
    failed: "Something went wrong while saving data.",
    thankYouTitle: "Thank you",
    thankYou: "Registration completed successfully! Check your email for any news or updates.",
    // Ours.
    digitsOnly: "Use digits only",
    email: emailInvalid,
    hasTeam: "Choose yes or no",
    tshirtSize: "Choose S, M, L, XL or XXL",
    tooLong,
    rateLimited: template(
      "Too many registrations from your network. Try again in {{wait}}.",
      (retryAfterSeconds: number) => ({ wait: formatWait(retryAfterSeconds) }),
      { nested: { wait } },
    ),
    noneSelected: "Select at least one registration",
    tooManySelected: template("Select at most {{count}} registrations at a time", (max: number) => ({ count: max })),
    accountsCreated: template({ one: "1 account created", other: "{{count}} accounts created" }, (count: number) => ({ count })),
    accountsFailed: "The accounts could not be created. Nothing was changed; please try again.",
  },
  // Mail, set-password links, forgotten and changed passwords (docs/domain.md "Mail").
  mail: {
    addressRequired: "Enter your email address",
    addressInvalid: emailInvalid,
    languageInvalid: "Choose English or Arabic",
    addressTaken: "Another user already has this email address",
    // The flows that need mail, when this server sends none.
    off: "Mail is off on this server: no SMTP server is configured (SMTP_HOST).",
    noAddress: "This user has no email address: add one first.",
    passwordOrAddress: "Give a password, or an email address to mail a link to choose one",
    passwordNeeded: "Mail is off on this server: give a password.",
    notQueued: "The mail could not be queued. Please try again in a moment.",
    linkQueued: template("A set-password link is on its way to {{address}}", (address: string) => ({ address })),
    // /forgot-password: the one answer, whether or not an account has the address.
    resetAnswer: "If an account has this address, a link to choose a new password is on its way to it. The link works for 30 minutes.",
    resetThrottled: template(
      "Too many requests from your network. Try again in {{wait}}.",
      (retryAfterSeconds: number) => ({ wait: formatWait(retryAfterSeconds) }),
      { nested: { wait } },
    ),
    // A link opened or sent: why it does not work.
    linkUnknown: "This link is not valid: it may have been mistyped, or replaced by a newer one. Ask for a new link.",
    linkUsed: "This link has already been used. Ask for a new link if you need one.",
    linkExpired: "This link has expired. Ask for a new link.",
    passwordsDiffer: "The two passwords are not the same",
    passwordSet: "Your password is set. Sign in with it.",
    currentPasswordWrong: "Your current password is not right",
    passwordChanged: "Your password is changed. Your other sign-ins were ended.",
  },
  // HTTP API: the `message` of its JSON errors.
  api: {
    unauthenticated: "Sign in first, or send an API token (Authorization: Bearer gk_...).",
    invalidToken: "This API token is unknown or has been revoked.",
    notAToken: "The Authorization header holds no API token: send Authorization: Bearer gk_..., or no Authorization header at all.",
    forbidden: "Your role does not allow this call.",
    notYourTeam: "You can only read your own team's data.",
    blindTeam: "Judging is blind: a judge cannot read one team's data. Read the submissions through /api/v1/submissions.",
    foreignOrigin: "This request comes from another site and was refused. Scripts should use an API token.",
    missingOrigin: "A change made with the session cookie must come from this site (Origin header). Scripts should use an API token.",
    notFound: "Nothing here: see /api/v1/openapi.json for the calls.",
    methodNotAllowed: template("This path accepts {{allowed}} only.", (allowed: string) => ({ allowed })),
    invalidJson: "The body is not valid JSON.",
    unsupportedMediaType: template("Send the body as {{expected}}.", (expected: string) => ({ expected })),
    invalidFields: "Some fields are invalid.",
    invalidId: "The id in the path must be a positive whole number.",
  },
  // Integrity signals (Dashboard → Integrity signals).
  integrity: {
    notFound: "This signal no longer exists",
    alreadyDecided: "This signal was already decided by another admin",
    teamRequired: "Choose the team to penalise",
    teamNotInSignal: "Choose one of the two teams of this signal",
    reasonNamesTeam: "The team reads this reason: leave the other team's name and its members' names out of it",
    reasonRequired: "Please give a reason",
    challengeNotFound: "This challenge no longer exists",
    starterTooLong: template("The starter code is too long ({{count}} characters at most)", (max: number) => ({ count: max })),
    similarityRange: "The similarity threshold is a whole percentage from 10 to 100",
    devicesRange: "The browsers per account threshold is a whole number from 2 to 100",
    dismissed: "Signal dismissed",
    confirmed: "Signal confirmed: the penalty is given",
    starterSaved: "Starter code saved",
    thresholdsSaved: "Thresholds saved",
  },
  // Manual awards (Dashboard → Awards).
  awards: {
    teamRequired: "Choose a team",
    teamNotFound: "This team no longer exists",
    pointsRequired: "Please enter the points",
    pointsNotANumber: "The points must be a number, like 25 or -10.5",
    decimals: "Use at most 2 decimals",
    pointsZero: "An award of 0 points changes nothing: give a positive or a negative number",
    pointsRange: template("At most {{max}} points either way", (max: string) => ({ max })),
    categoryInvalid: "Choose AI, CS, PS, GD, or no category",
    reasonRequired: "Please give a reason",
    reasonTooLong: template("The reason is too long ({{count}} characters at most)", (max: number) => ({ count: max })),
    notFound: "This award no longer exists",
    alreadyRevoked: "This award was already revoked",
    given: "Award given",
    revoked: "Award revoked",
  },
  apiTokens: {
    userRequired: "Choose a user",
    nameRequired: "Name is required",
    created: "Token created: copy it now, it will not be shown again.",
    revoked: "Token revoked",
    notFound: "This token no longer exists",
  },
  // Bulk import.
  imports: {
    fileRequired: "Choose a file",
    fileTooLarge: template("The file is larger than {{megabytes}} MB", (maxBytes: number) => ({ megabytes: Math.round(maxBytes / 1_000_000) })),
    unreadableCsv: template("The file could not be read as CSV: {{reason}}", (reason: string) => ({ reason })),
    unreadableJson: template("The file could not be read as JSON: {{reason}}", (reason: string) => ({ reason })),
    jsonShape: "The JSON file must hold a list of challenges (or { \"challenges\": [...] })",
    notAnObject: "This item is not an object",
    missingColumns: template(
      { one: "The file needs the column {{columns}}", other: "The file needs the columns {{columns}}" },
      (missing: string[]) => ({ columns: missing }),
      { countOf: "columns" },
    ),
    unknownColumns: template(
      { one: "Unknown column {{columns}} (known: {{known}})", other: "Unknown columns {{columns}} (known: {{known}})" },
      (unknown: string[], known: string[]) => ({ columns: unknown, known }),
      { countOf: "columns" },
    ),
    empty: "The file has no rows",
    tooManyRows: template("At most {{count}} rows per file: split it", (max: number) => ({ count: max })),
    duplicateInFile: template("The same name is also on row {{row}}", (row: number) => ({ row })),
    duplicateAddressInFile: template("The same email address is also on row {{row}}", (row: number) => ({ row })),
    staffTeam: "Admins and judges have no team: leave it empty",
    roleInvalid: "The role must be admin, judge or participant",
    rowsInvalid: template(
      {
        one: "1 row has errors: nothing was imported. Fix the file and preview it again.",
        other: "{{count}} rows have errors: nothing was imported. Fix the file and preview it again.",
      },
      (count: number) => ({ count }),
    ),
    accountsImported: template({ one: "1 account imported", other: "{{count}} accounts imported" }, (count: number) => ({ count })),
    challengesImported: template({ one: "1 challenge imported", other: "{{count}} challenges imported" }, (count: number) => ({ count })),
    // A challenge file's `prerequisites`: the titles of challenges already saved or on other rows of the file.
    prerequisiteUnknown: template("No challenge is called “{{title}}”, saved or in this file", (title: string) => ({ title })),
    prerequisiteAmbiguous: template("Several challenges are called “{{title}}”: name one that is alone with its title", (title: string) => ({ title })),
    prerequisitesTooMany: template("At most {{max}} prerequisites", (max: number) => ({ max })),
    failed: "The import failed and nothing was written. Please try again.",
  },
  errors: {
    forbiddenTitle: "This place is sealed to you",
    forbidden: "Your role does not open this page.",
    notFoundTitle: "Lost between the gates",
    notFound: "The page you are looking for does not exist.",
    serverTitle: "Something broke",
    server: "An unexpected error happened. Please try again in a moment.",
    unavailable: "The service is briefly unavailable. Please try again in a few seconds.",
    crossSite: "This request came from another site and was refused. Please use the form on this site.",
    // A page, or anything but /api/v1, with an Authorization header (docs/decisions/009-http-api.md).
    authorizationHeader: "This page does not take an Authorization header: send the request without it, signed in with your session.",
    bodyTooLarge: template(
      "The request is larger than {{kilobytes}} KB, the most this form or call accepts. Nothing was saved.",
      (maxBytes: number) => ({ kilobytes: Math.round(maxBytes / 1024) }),
    ),
    bodyTooSlow: "The request's body did not arrive in time. Nothing was saved; please try again.",
    formContentType: "This page takes its form as a browser sends it (application/x-www-form-urlencoded or multipart/form-data). Nothing was saved.",
    formUnreadable: "The form's body could not be read (a malformed multipart body?). Nothing was saved; send it again from the page.",
    badRequestTitle: "That request could not be used",
    badRequest: "The form was changed or is out of date. Reload the page and try again.",
    // Answers to requests no page or call of ours sends (app/glue/malformed-requests.server.ts, app/glue/fitting-answers.server.ts).
    methodNotAllowed: template("This address does not take {{method}} requests; it takes {{allowed}}. Nothing was done.", (method: string, allowed: string) => ({ method, allowed })),
    hostInvalid: "The request's Host header is not a host name (with a port from 1 to 65535, if any). Nothing was done.",
    // A judge's inline view of a file that is neither an image nor a PDF (/submissions/:id/inline).
    notInline: "This file cannot be shown in the page: download it instead.",
    dataParameter: "This address takes no _data parameter: open the page itself. Nothing was done.",
    refused: "This request was refused. Nothing was saved.",
    noForm: "This page has no form to send: nothing was saved. Open it and use its links and buttons.",
    unparsable: "The request could not be read as HTTP. Nothing was done.",
    headersTooLarge: "The request's headers are too large. Nothing was done.",
    // File storage did not answer: nothing was saved, the form keeps what was typed.
    storageUnavailable: "The file could not be stored right now. Please try again in a moment.",
  },
  // Divisions (docs/domain.md "Divisions"): the event's list (Settings), a team's one (Teams, API, import), the boards.
  scoreboardFeed: {
    limitInvalid: template("limit is a whole number from 1 to {{max}}", (max: number) => ({ max })),
    offsetInvalid: template("offset is a whole number from 0 to {{max}}", (max: number) => ({ max })),
  },
  divisions: {
    label: "Division",
    none: "No division",
    allTeams: "All teams",
    invisible: "A division's name cannot contain invisible or control characters (zero-width spaces, direction marks and the like)",
    nameTooLong: template("A division's name has at most {{count}} characters", (max: number) => ({ count: max })),
    // The Settings list: a problem on one line.
    onLine: template("Line {{line}}: {{message}}", (line: number, message: string) => ({ line, message }), { nested: { message: "any" } }),
    duplicate: template(
      '"{{name}}" is the same division as "{{other}}" (case and letters that look alike count as one)',
      (name: string, other: string) => ({ name, other }),
    ),
    tooMany: template("At most {{count}} divisions", (max: number) => ({ count: max })),
    inUse: template(
      {
        one: "1 team is in {{name}}: move it to another division on the Teams page before removing it",
        other: "{{count}} teams are in {{name}}: move them to another division on the Teams page before removing it",
      },
      (name: string, teams: number) => ({ name, count: teams }),
    ),
    needsFinal: "Set the final countdown first: divisions are saved with the event's settings.",
    saved: template(
      { zero: "Divisions saved: none, one board for every team", other: "Divisions saved: {{names}}" },
      (names: readonly string[]) => ({ names }),
      { countOf: "names" },
    ),
    unknown: template(
      { zero: "The event has no divisions: add them in Settings first", other: "Choose a division from the event's list: {{names}}" },
      (names: readonly string[]) => ({ names }),
      { countOf: "names" },
    ),
    required: "Give the division's name (to take the team out of its division, DELETE it)",
    // The scoreboard's ?division= names none of the event's (a stale or mistyped link).
    notOnBoard: template('There is no division called "{{name}}": showing every team.', (name: string) => ({ name })),
    // Bulk import.
    staff: "Admins and judges have no team: leave the division empty",
    conflict: template(
      "Row {{row}} puts {{team}} in {{division}}",
      (team: string, division: string | null, row: number) => ({ row, team, division: division ?? noDivision }),
      { nested: { division: [noDivision] } },
    ),
    noDivision,
  },
  // The team size cap (docs/domain.md "Teams"): refused in the dashboard, the API, the import and accounts from registrations alike.
  teamSize: {
    full: template(
      {
        one: "{{team}} is full: a team has at most {{count}} member (Settings → Team size). Choose another team.",
        other: "{{team}} is full: a team has at most {{count}} members (Settings → Team size). Choose another team.",
      },
      (team: string, cap: number) => ({ team, count: cap }),
    ),
    capInvalid: "The team size cap is a whole number from 1 to 100",
    needsFinal: "Set the final countdown first: the team size cap is saved with the event's settings.",
    saved: template(
      { one: "Team size cap saved: at most {{count}} member a team", other: "Team size cap saved: at most {{count}} members a team" },
      (cap: number) => ({ count: cap }),
    ),
    // The registration form's label (the original platform's words at the default of 5).
    registrationLabel: template("Team Name (Team must have a maximum of {{count}} members)", (cap: number) => ({ count: cap })),
  },
  // Teams that form themselves (docs/domain.md "Teams that form themselves"): the team page's sentences.
  selfTeams: {
    off: "Teams are formed by the organisers at this event.",
    locked: "Teams are locked: no one joins or leaves now. Ask an organiser.",
    participantsOnly: "Only participants are members of teams.",
    noTeam: "You are not in a team.",
    alreadyInTeam: "You are already in a team: leave it first to create another.",
    alreadyThisTeam: "You are already in this team.",
    leaveFirst: "You are in another team: leave it first to join this one.",
    captainOnly: "Only the team's captain can do this.",
    memberNotFound: "This person is not in your team.",
    inviteNotFound: "This invitation does not exist or was already revoked.",
    inviteUnknown: "This code is not a team's invitation. Check it with your captain.",
    inviteRevoked: "This invitation was revoked by the team's captain. Ask them for a new one.",
    inviteExpired: "This invitation has expired. Ask the team's captain for a new one.",
    teamFull: template(
      { one: "{{team}} is full: a team has at most {{count}} member.", other: "{{team}} is full: a team has at most {{count}} members." },
      (team: string, cap: number) => ({ team, count: cap }),
    ),
    tooManyInvites: template("A team holds at most {{max}} live invitations: revoke one first.", (max: number) => ({ max })),
    tooManyTries: template("Too many codes tried. Try again in {{wait}}.", (retryAfterSeconds: number) => ({ wait: formatWait(retryAfterSeconds) }), {
      nested: { wait },
    }),
    codeRequired: "Type the invitation's code",
    created: template("Team {{team}} created: you are its captain.", (team: string) => ({ team })),
    joined: template("You joined {{team}}.", (team: string) => ({ team })),
    left: "You left the team.",
    removed: "Removed from the team.",
    revoked: "Invitation revoked.",
    formationSaved: "Team formation saved.",
  },
  // Hints that cost points (docs/domain.md "Hints that cost points").
  hints: {
    noTeam: "Only a team's member can unlock a hint.",
    notFound: "This hint does not exist.",
    unlocked: template("Hint unlocked: {{cost}} points taken from your team.", (cost: number) => ({ cost })),
    unlockedFree: "Hint unlocked.",
    removeUnlocked: template("Hint {{number}} has been unlocked by a team: it cannot be removed (change its text instead).", (number: number) => ({ number })),
    lineShape: template("Hints, line {{line}}: write the cost, a bar, then the hint (25 | Look at the logs).", (line: number) => ({ line })),
    lineCost: template("Hints, line {{line}}: the cost is a number of points from 0 to 100,000, up to 2 decimals.", (line: number) => ({ line })),
    lineText: template("Hints, line {{line}}: the hint's text is 1 to 2,000 characters.", (line: number) => ({ line })),
    tooMany: template("At most {{max}} hints.", (max: number) => ({ max })),
  },
  // Flag challenges: the verdicts and refusals a player reads (docs/domain.md "Flag challenges").
  // The first-blood webhook (Dashboard → Settings; docs/domain.md "First-blood webhook").
  webhooks: {
    urlInvalid: "Enter the webhook's full address, starting with https://",
    httpsOnly: "The webhook's address must start with https:// (a post is signed, but only https keeps it private)",
    urlCredentials: "The webhook's address must not carry a user name or password",
    urlTooLong: "The webhook's address is too long (at most 2,000 characters)",
    urlNotPublic: "The webhook's address must be a public server on the internet, not this machine or a private network",
    formatInvalid: "Choose Discord or Slack",
    needsFinal: "Set the final countdown first: the webhook is saved with the event's settings.",
    needsUrl: "Save a webhook address first.",
    saved: "First-blood webhook saved.",
    turnedOff: "First-blood webhook turned off.",
    secretShown: "Copy this secret now: it is shown only once. Your receiver checks each post's signature with it.",
    secretRenewed: "New secret made: the old one no longer signs posts.",
    testQueued: "Test message on its way: it reaches the chat within seconds if the webhook works.",
    testNotQueued: "The test message could not be queued right now. Try again in a moment.",
  },
  flags: {
    correct: template("Correct! Your team solved this challenge: {{points}} points.", (points: number) => ({ points })),
    incorrect: "Incorrect answer.",
    incorrectAttemptsLeft: template(
      { one: "Incorrect answer. 1 attempt left.", other: "Incorrect answer. {{count}} attempts left." },
      (count: number) => ({ count }),
    ),
    incorrectWait: template("Incorrect answer. Too many wrong answers: wait {{wait}} before the next one.", (seconds: number) => ({ wait: formatWait(seconds) }), {
      nested: { wait },
    }),
    wait: template("Too many wrong answers: wait {{wait}} before the next one.", (seconds: number) => ({ wait: formatWait(seconds) }), { nested: { wait } }),
    noAttemptsLeft: "Your team has used every attempt this challenge allows.",
    busy: "Your team's answers to this challenge are coming faster than they can be checked: wait for the verdict before sending another.",
    alreadySolved: "Your team has already solved this challenge.",
    notFlag: "This challenge is judged: send your work with the form instead.",
    judgedByFlag: "This challenge checks a flag: type it in the answer box instead of sending a file.",
    empty: "Type an answer first.",
    tooLong: "An answer has at most 1,024 bytes.",
    controlCharacters: "An answer cannot contain control characters.",
    noTeam: "Only a team's member can answer a challenge.",
    matchedAnswer: template("Matches answer {{number}}.", (number: number) => ({ number })),
    matchedNothing: "Matches no answer.",
  },
  // A flag challenge's answers and limits as an admin writes them (app/modules/flags/answers.ts).
  flagAnswers: {
    required: "A flag challenge needs at least one answer: write one a line.",
    tooMany: "A flag challenge has at most 20 answers.",
    emptyValue: template("Answers, line {{line}}: write the answer after the colon.", (line: number) => ({ line })),
    controlCharacters: template("Answers, line {{line}}: an answer cannot contain control characters.", (line: number) => ({ line })),
    tooLong: template("Answers, line {{line}}: an answer has at most 1,024 bytes.", (line: number) => ({ line })),
    onePerTeam: template("Answers, line {{line}}: a challenge has at most one per-team answer.", (line: number) => ({ line })),
    badPattern: template("Answers, line {{line}}: this pattern does not compile ({{reason}}).", (line: number, reason: string) => ({ line, reason })),
    notForJudges: "Answers are used only by flag challenges: choose “Flag (checked at once)”, or leave the answers empty.",
    dynamicForFlags: "Dynamic points are for flag challenges only.",
    dynamicNeedsCurve: "Dynamic points need a minimum and a decay.",
    minimumAbovePoints: "The minimum is at most the challenge's points.",
    minimumInvalid: "Minimum: a whole number of points from 1 to 1,000,000.",
    decayInvalid: "Decay: a whole number of solves from 1 to 1,000,000.",
    scoringInvalid: "Choose static or dynamic points.",
    checkingLocked: "This challenge already has submissions or answers: how it is checked can no longer change.",
    checkingInvalid: "Choose judges or flag.",
    wrongPerMinuteInvalid: "Wrong answers a minute: a whole number from 1 to 1,000.",
    maxAttemptsInvalid: "Attempts: a whole number from 1 to 1,000,000.",
    settingSaved: "Wrong answers a minute saved.",
    settingNeedsFinal: "Set the final countdown first: this setting is saved with the event's settings.",
  },
  // Dashboard → Attempts: the admins' read of the teams' answers to flag challenges, and its actions.
  flagAttempts: {
    loadFailed: template("The attempts could not be loaded: {{message}}", (message: string) => ({ message }), { nested: { message: "any" } }),
    teamNotFound: "This team no longer exists.",
    challengeNotFound: "This challenge no longer exists.",
    notFlag: "This challenge is judged: it takes no flag answers.",
    nothingToReset: "This team has no counted wrong answer on this challenge: nothing to reset.",
    tryInvalid: "Choose a flag challenge and type an answer to try.",
    reset: template(
      {
        one: "{{team}} may answer {{challenge}} again: 1 wrong answer no longer counts.",
        other: "{{team}} may answer {{challenge}} again: {{count}} wrong answers no longer count.",
      },
      (team: string, challenge: string, count: number) => ({ team, challenge, count }),
    ),
    notPerTeam: "This challenge has no per-team flag: choose one from the list.",
  },
  // Prediction challenges (app/modules/predictions): the admin's settings and labels, a team's files, the reveal.
  predictions: {
    notMetric: "This challenge is not scored by a metric.",
    notReady: "This challenge's labels are not uploaded yet: predictions cannot be scored before they are.",
    revealed: "The private scores of this challenge are revealed: it takes no more predictions, and the file that counts can no longer change.",
    dailyLimit: template(
      { one: "Your team has sent today's 1 file to this challenge: send again tomorrow (the event's days).", other: "Your team has sent today's {{count}} files to this challenge: send again tomorrow (the event's days)." },
      (count: number) => ({ count }),
    ),
    settingsLocked: "Teams have sent predictions: the metric and the public share can no longer change.",
    labelsLocked: "Teams have sent predictions: the labels can no longer change.",
    settingsFirst: "Save the challenge's metric and scoring first, then upload its labels.",
    baselineIsTarget: "The target must differ from the baseline.",
    errorTargetAbove: "For an error metric (RMSE, MAE) the target is below the baseline.",
    scoreTargetBelow: "For this metric the target is above the baseline.",
    notYours: "This file is not one of your team's.",
    notScored: "Only a scored file can count.",
    sent: "Predictions sent: their score shows here as soon as they are read.",
    chosen: "This file now counts for your team.",
    latestChosen: "Your team's latest scored file counts again.",
    fileRequired: "Choose a predictions file (CSV).",
    fileTooLarge: template("A file has at most {{megabytes}} MB.", (megabytes: number) => ({ megabytes })),
    labelsRequired: "Choose a labels file (CSV).",
    labelsSaved: template("Labels saved: {{rows}} rows.", (rows: number) => ({ rows })),
    labelsRefused: "The labels file was refused; nothing was changed.",
    settingsSaved: "Prediction settings saved.",
    revealedNow: "Private scores revealed: the standings now count them.",
    alreadyRevealed: "The private scores were already revealed.",
    metricInvalid: "Choose a metric.",
    percentInvalid: "Public share: a whole percentage from 1 to 99.",
    numberInvalid: "Write a number, such as 0.75.",
    dailyLimitInvalid: "Daily limit: a whole number of files from 1 to 1,000.",
    checkedByMetric: "This challenge scores a predictions file: send it on the challenge's predictions page.",
    loadFailed: "The prediction challenge could not be loaded.",
  },
  threads: {
    notFound: "This thread does not exist.",
    closed: "This thread is closed: nothing more can be written in it.",
    someoneElse,
    claimedByAnother: template("{{name}} is already answering this thread.", (name: string) => ({ name }), { nested: { name: [someoneElse] } }),
    notAQuestion: "Only a question about a challenge can be published as an announcement.",
    claimed: "Thread claimed: the other organisers see it is yours.",
    released: "Thread released: it is back in the queue for anyone to take.",
    adminTakeOver: template("{{name}} holds this thread. As an admin you may take it over, answer or close it.", (name: string) => ({ name }), {
      nested: { name: [someoneElse] },
    }),
    answered: "Reply sent: the team sees it now.",
    teamReplied: "Message sent: the organisers see it now.",
    closedNow: "Thread closed.",
    published: "Answer published as an announcement to every team.",
    asked: "Question sent: an organiser will answer it here.",
    replyRequired: "Write a message first.",
    replyTooLong: "At most 4,000 characters.",
    questionTooLong: "At most 2,000 characters.",
    noTeam: "Only a team's member can ask about a challenge.",
    challengeNotFound: "This challenge is not open to your team.",
    // Threads waiting for an organiser (open or claimed): THREADS_WAITING_PER_TEAM, THREADS_WAITING_PER_USER.
    teamWaitingLimit: template(
      "Your team has reached its limit of questions and requests waiting for an organiser ({{limit}}): wait for an answer before sending another.",
      (limit: number) => ({ limit }),
    ),
    userWaitingLimit: template(
      "You have reached your limit of questions and requests waiting for an organiser ({{limit}}): wait for an answer before sending another.",
      (limit: number) => ({ limit }),
    ),
    replyNotification: template("An organiser answered: {{body}}", (body: string) => ({ body: body.length > 160 ? `${body.slice(0, 157)}...` : body })),
    statusLabels: { open: "Open", claimed: "Claimed", answered: "Answered", closed: "Closed" },
    kindLabels: { mentor: "Mentor call", needs: "Need", question: "Question" },
  },
} as const;

function formatWait(seconds: number): string {
  return seconds < 60 ? waitSeconds(Math.max(1, Math.ceil(seconds))) : waitMinutes(Math.ceil(seconds / 60));
}
