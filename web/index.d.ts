// Types of the animconv npm package (docs/web.md).

/** A file handed in or out: a name (relative, '/' between folders) and its bytes. */
export interface FileData {
  name: string;
  bytes: Uint8Array;
}

/** An input file, with the side files it refers to (a glTF's .bin and images). */
export interface InputFile extends FileData {
  files?: FileData[];
}

export interface Diagnostic {
  severity: 'debug' | 'info' | 'warning';
  text: string;
}

interface Told {
  /** The info-level diagnostics, as the CLI prints them after `animconv: info: `. */
  notes: string[];
  /** The warnings, as the CLI prints them after `animconv: warning: `. */
  warnings: string[];
  /** Every diagnostic in the order it happened, debug ones too. */
  diagnostics: Diagnostic[];
}

export interface FormatInfo {
  id: string;
  description: string;
  extensions: string[];
  read: boolean;
  write: boolean;
}

/** A file an option names: a name among the input's side files, or the file itself. */
export type FileOption = string | FileData;

/**
 * The CLI's options (docs/cli.md), by their long name in camelCase or as on the command line
 * ("allowPartial" or "allow-partial"); a switch is `true`, a value a string or number.
 */
export interface InputOptions {
  from?: string;
  bones?: FileOption;
  interval?: number;
  fps?: number;
  scale?: number;
  maxInputMb?: number;
  maxNodes?: number | string;
  maxDepth?: number | string;
  maxChannels?: number | string;
  maxKeys?: number | string;
  maxMorphTargets?: number | string;
  maxNameBytes?: number | string;
  [cliName: string]: unknown;
}

export interface ConvertOptions extends InputOptions {
  /** Output format id (see formats()); or give `output` and the format comes from its extension. */
  to?: string;
  /** Output file name; default: the input's name with the format's extension. */
  output?: string;
  mirror?: 'z' | 'x' | 'none';
  clip?: string | number;
  allowPartial?: boolean;
  sourceRig?: FileOption;
  skeleton?: FileOption;
  sourceFacing?: '+z' | '-z';
  boneMap?: FileOption;
  boneNames?: 'unity' | 'vrm0' | 'vrm1' | 'mixamo';
  threeArray?: boolean;
  morphTracks?: 'auto' | 'all' | 'per-target';
  timeUnit?: 's' | 'ms';
  bvhOrder?: string;
  rootMotion?: 'keep' | 'in-place' | 'extract';
  /** --ground: the lowest foot point over each clip moved to y = 0 (docs/root_motion.md). */
  ground?: boolean;
  precision?: number;
  trim?: string;
  speed?: number;
  offset?: number;
  resample?: number;
  interpolation?: 'linear' | 'step';
  loop?: boolean;
  loopBlend?: number;
  reduce?: boolean;
  reduceRotation?: number;
  reduceTranslation?: number;
  reduceScale?: number;
  reduceWeight?: number;
  reduceHierarchical?: number | boolean;
  reduceKeepRest?: boolean;
}

export interface ConvertResult extends Told {
  files: FileData[];
  input_format: string;
  output_format: string;
  input_bytes: number;
  output_bytes: number;
}

export interface InfoOptions extends InputOptions {
  boneMap?: FileOption;
}

export interface DiffOptions extends InputOptions {
  clip?: string | number;
  clipB?: string | number;
  hierarchical?: number;
  samplesBetween?: number;
  cubicChordFraction?: number;
  space?: 'auto' | 'local' | 'world';
  mirror?: 'z' | 'x' | 'none';
}

/** The report `animconv info --json` / `animconv diff --json` prints, as an object. */
export type Report = Record<string, unknown>;

export interface ReportResult extends Told {
  report: Report;
  /** The same report as the CLI prints it with --json (JSON text, indented by 2). */
  report_text: string;
  /** The text report the CLI prints without --json (diff: the 10 worst channels per unit). */
  text: string;
}

export interface PreviewOptions extends Omit<ConvertOptions, 'output'> {
  /** The page's name (default: the input's stem + ".html"). */
  output?: string;
  /** A glTF/GLB/VRM model to play on: a VRM plays a .vrma, another model is retargeted onto. */
  model?: FileOption;
  /** The format converted to and played: 'vrma' | 'glb' | 'three' | 'bvh' (default: chosen). */
  to?: string;
  /** Another viewer template (default: the package's dist/animconv_viewer.html). */
  viewer?: FileData;
}

export interface PreviewResult extends Told {
  /** The page: one self-contained HTML file that plays from file://. */
  files: FileData[];
  input_format: string;
  output_format: string;
  output_name: string;
  show: 'gltf' | 'vrma-on-vrm' | 'vrma-on-humanoid' | 'three-on-model' | 'bvh';
  page_bytes: number;
}

/** A humanoid bone naming (animconv bones). */
export type BoneNamingId = 'unity' | 'vrm0' | 'vrm1' | 'mixamo';

export interface BakeOptions {
  /** The output name (default: the input's stem + ".frames.json"). */
  output?: string;
  clip?: string | number;
  node?: string;
  fps?: number;
  maxInputMb?: number;
}

export interface BakeResult extends Told {
  files: FileData[];
  clip: string;
  node: string;
  frames: number;
  vertices: number;
}

export interface BatchFileResult {
  input: string;
  output: string;
  status: 'converted' | 'skipped' | 'failed' | 'not started';
  message: string;
  exit_code: number;
  input_bytes: number;
  output_bytes: number;
  diagnostics: Diagnostic[];
}

export interface BatchResult extends Told {
  files: FileData[];
  results: BatchFileResult[];
  wall_seconds: number;
  stopped: boolean;
}

export interface BonesResult extends Told {
  text: string;
}

/** An error as the CLI reports it: kind and exit code of docs/cli.md, file and location. */
export class AnimconvError extends Error {
  kind: 'usage' | 'bad-input' | 'io' | 'internal';
  exitCode: 1 | 2 | 3 | 4;
  file: string;
  location: string;
  /** The message without file and location. */
  detail: string;
  diagnostics: Diagnostic[];
}

export function formats(): Promise<FormatInfo[]>;
export function convert(input: InputFile, options: ConvertOptions): Promise<ConvertResult>;
export function info(input: InputFile, options?: InfoOptions): Promise<ReportResult>;
export function diff(a: InputFile, b: InputFile, options?: DiffOptions): Promise<ReportResult>;
export function bake(input: InputFile, options?: BakeOptions): Promise<BakeResult>;
export function preview(input: InputFile, options?: PreviewOptions): Promise<PreviewResult>;
export function batch(inputs: InputFile[], options: Omit<ConvertOptions, 'output'> & {to: string}):
    Promise<BatchResult>;
export function bones(names?: string[], options?: {from?: BoneNamingId; to?: BoneNamingId}):
    Promise<BonesResult>;
