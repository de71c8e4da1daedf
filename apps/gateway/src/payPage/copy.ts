/**
 * Every word the pay page says, in English and Arabic. Written for the
 * payer: what happened, whether money moved, and what to do next. A
 * merchant's name is passed in as markup (`<bdi dir="auto">`), so that an
 * Arabic name in an English sentence (or the reverse) keeps its direction.
 */
import { type Html, html } from "./html.ts"
import type { Language } from "./language.ts"

export interface TimeLeft {
  readonly hours: number
  readonly minutes: number
}

export interface Copy {
  readonly sandboxBadge: string
  readonly checkoutHeading: string
  readonly totalLabel: string
  /** A time as the page writes it, with its zone: every time the page shows is said with it. */
  readonly inGulfTime: (time: string) => string
  /** `at` is a time with its zone (`inGulfTime`). */
  readonly expiresIn: (left: TimeLeft, at: string) => string
  readonly pay: (amount: string) => string
  readonly reference: string
  readonly declinedRetry: string
  readonly testOutcomes: string
  readonly testOutcomesHelp: string
  readonly decline: string
  readonly paidHeading: string
  readonly paidOn: string
  readonly merchant: string
  readonly receiptNote: string
  readonly returnTo: (merchant: Html) => Html
  readonly closePage: string
  readonly failedHeading: string
  readonly declinedFinal: string
  readonly failedNext: (merchant: Html) => Html
  readonly expiredHeading: string
  readonly expiredText: (at: string) => string
  readonly expiredNext: (merchant: Html) => Html
  readonly cancelledHeading: string
  readonly cancelledText: string
  readonly revokedHeading: string
  readonly revokedText: string
  readonly paymentRevokedHeading: string
  readonly paymentRevokedText: string
  readonly contactNext: (merchant: Html) => Html
  readonly unavailableHeading: string
  readonly unavailableText: string
  readonly challengeHeading: string
  readonly challengeText: string
  readonly card: string
  readonly cardEnding: (brand: string, last4: string) => string
  readonly confirm: string
  readonly failVerification: string
  readonly notFoundHeading: string
  readonly notFoundText: string
  readonly errorHeading: string
  readonly errorText: string
  readonly securePayment: string
  readonly terms: string
  readonly privacy: string
  /** The link to the other language, written in that language. */
  readonly otherLanguage: string
}

const english: Copy = {
  sandboxBadge: "Sandbox: no real money moves",
  checkoutHeading: "Complete your payment",
  totalLabel: "Total",
  inGulfTime: (time) => `${time} Gulf time`,
  expiresIn: ({ hours, minutes }, at) =>
    hours === 0 && minutes === 0
      ? `Expires in less than a minute (${at})`
      : `Expires in ${hours > 0 ? `${hours} h ` : ""}${minutes} min (${at})`,
  pay: (amount) => `Pay ${amount}`,
  reference: "Reference",
  declinedRetry: "Your payment was declined. No money was taken. You can try again.",
  testOutcomes: "Test outcomes",
  testOutcomesHelp:
    "Sandbox only. Pay above completes the payment. To see how your integration handles a declined payment:",
  decline: "Decline this payment",
  paidHeading: "Payment received",
  paidOn: "Paid on",
  merchant: "Merchant",
  receiptNote: "Keep this page as your receipt.",
  returnTo: (merchant) => html`Return to ${merchant}`,
  closePage: "You can close this page.",
  failedHeading: "Payment failed",
  declinedFinal: "Your payment was declined. No money was taken.",
  failedNext: (merchant) => html`Contact ${merchant} to pay another way.`,
  expiredHeading: "This payment link has expired",
  expiredText: (at) => `It expired on ${at}, before it was paid. No money was taken.`,
  expiredNext: (merchant) => html`Ask ${merchant} for a new payment link.`,
  cancelledHeading: "This order was cancelled",
  cancelledText: "The merchant cancelled this order. No money was taken.",
  revokedHeading: "This order was revoked",
  revokedText: "The merchant revoked this order. No money was taken.",
  paymentRevokedHeading: "Payment revoked",
  paymentRevokedText: "The merchant revoked this payment: the money is being refunded to you.",
  contactNext: (merchant) => html`For questions, contact ${merchant}.`,
  unavailableHeading: "Payment not available here",
  unavailableText: "Payment channels are not connected to this gateway, so this order cannot be paid on this page.",
  challengeHeading: "Confirm your payment",
  challengeText: "Your card issuer asks you to confirm this payment (3-D Secure, simulated by the sandbox).",
  card: "Card",
  cardEnding: (brand, last4) => `${brand} ending in ${last4}`,
  confirm: "Confirm payment",
  failVerification: "Fail verification",
  notFoundHeading: "Payment link not found",
  notFoundText: "This payment link is not valid. Ask the merchant for a new one.",
  errorHeading: "Something went wrong",
  errorText: "The payment page could not be shown. No money was taken. Please try again in a moment.",
  securePayment: "Secure payment",
  terms: "Terms",
  privacy: "Privacy",
  otherLanguage: "العربية",
}

const arabic: Copy = {
  sandboxBadge: "بيئة تجريبية: لا تُنقل أموال حقيقية",
  checkoutHeading: "أكمل عملية الدفع",
  totalLabel: "الإجمالي",
  inGulfTime: (time) => `${time} بتوقيت الخليج`,
  expiresIn: ({ hours, minutes }, at) =>
    hours === 0 && minutes === 0
      ? `تنتهي الصلاحية خلال أقل من دقيقة (${at})`
      : `تنتهي الصلاحية خلال ${hours > 0 ? `${hours} س ` : ""}${minutes} د (${at})`,
  pay: (amount) => `ادفع ${amount}`,
  reference: "المرجع",
  declinedRetry: "تم رفض عملية الدفع. لم يُخصم أي مبلغ. يمكنك المحاولة مرة أخرى.",
  testOutcomes: "نتائج الاختبار",
  testOutcomesHelp: "في البيئة التجريبية فقط. زر الدفع أعلاه يُتم الدفع. لترى كيف يتعامل نظامك مع دفعة مرفوضة:",
  decline: "ارفض هذه الدفعة",
  paidHeading: "تم استلام الدفعة",
  paidOn: "تاريخ الدفع",
  merchant: "التاجر",
  receiptNote: "احتفظ بهذه الصفحة كإيصال.",
  returnTo: (merchant) => html`العودة إلى ${merchant}`,
  closePage: "يمكنك إغلاق هذه الصفحة.",
  failedHeading: "فشلت عملية الدفع",
  declinedFinal: "تم رفض عملية الدفع. لم يُخصم أي مبلغ.",
  failedNext: (merchant) => html`تواصل مع ${merchant} للدفع بطريقة أخرى.`,
  expiredHeading: "انتهت صلاحية رابط الدفع",
  expiredText: (at) => `انتهت صلاحيته في ${at} قبل أن يُدفع. لم يُخصم أي مبلغ.`,
  expiredNext: (merchant) => html`اطلب من ${merchant} رابط دفع جديدًا.`,
  cancelledHeading: "تم إلغاء هذا الطلب",
  cancelledText: "ألغى التاجر هذا الطلب. لم يُخصم أي مبلغ.",
  revokedHeading: "تم سحب هذا الطلب",
  revokedText: "سحب التاجر هذا الطلب. لم يُخصم أي مبلغ.",
  paymentRevokedHeading: "تم سحب الدفعة",
  paymentRevokedText: "سحب التاجر هذه الدفعة: يجري رد المبلغ إليك.",
  contactNext: (merchant) => html`للاستفسار، تواصل مع ${merchant}.`,
  unavailableHeading: "الدفع غير متاح هنا",
  unavailableText: "قنوات الدفع غير متصلة بهذه البوابة، لذا لا يمكن دفع هذا الطلب من هذه الصفحة.",
  challengeHeading: "أكّد عملية الدفع",
  challengeText: "يطلب منك مُصدر بطاقتك تأكيد هذه الدفعة (التحقق الآمن ثلاثي الأبعاد، تحاكيه البيئة التجريبية).",
  card: "البطاقة",
  cardEnding: (brand, last4) => `${brand} المنتهية بـ ${last4}`,
  confirm: "أكّد الدفع",
  failVerification: "أفشل التحقق",
  notFoundHeading: "رابط الدفع غير موجود",
  notFoundText: "رابط الدفع هذا غير صالح. اطلب من التاجر رابطًا جديدًا.",
  errorHeading: "حدث خطأ ما",
  errorText: "تعذّر عرض صفحة الدفع. لم يُخصم أي مبلغ. يُرجى المحاولة بعد قليل.",
  securePayment: "دفع آمن",
  terms: "الشروط",
  privacy: "الخصوصية",
  otherLanguage: "English",
}

export const copyOf: Readonly<Record<Language, Copy>> = { en: english, ar: arabic }
