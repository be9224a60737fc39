/**
 * The results report's font files, as data the deploy reads too (infra/report-fonts.ts, which must not load
 * the functions' configuration): each face's file as Node resolves it from its package, and the variable
 * naming a face the deploy keeps in S3 instead of beside the bundle (shared/report/font-files.ts).
 */
export const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  chinese: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  korean: '@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf',
} as const;

export type FontFace = keyof typeof FONT_FILES;

/** The CJK fallbacks, 16.8 MB of the 18 MB: fetched once per container, as `s3://<bucket>/<key>` in these variables. */
export const FETCHED_FACES = { chinese: 'REPORT_FONT_CHINESE', korean: 'REPORT_FONT_KOREAN' } as const satisfies Partial<Record<FontFace, string>>;
