// The form's options as the animconv API takes them (the CLI's long names in camelCase, docs/cli.md):
// an empty field is left out (the CLI's default), a number field goes as a number.
const TEXT = ['to', 'mirror', 'clip', 'boneNames', 'rootMotion', 'trim'];
const NUMBER = ['interval', 'fps', 'speed', 'resample', 'reduceRotation', 'reduceTranslation'];
// File options (a File each; the worker hands them to the API as {name, bytes}).
export const FILE_OPTIONS = ['boneMap', 'bones', 'sourceRig'];

export function collectOptions(form) {
  const options = {};
  for (const name of TEXT) {
    const value = form.elements[name].value.trim();
    if (value) options[name] = value;
  }
  for (const name of NUMBER) {
    const value = form.elements[name].value.trim();
    if (value) options[name] = Number(value);
  }
  for (const name of ['reduce', 'ground', 'loop']) {
    if (form.elements[name].checked) options[name] = true;
  }
  return options;
}

// The file options picked: {boneMap: File, ...}, those left empty left out.
export function collectOptionFiles(form) {
  const files = {};
  for (const name of FILE_OPTIONS) {
    const file = form.elements[name].files[0];
    if (file) files[name] = file;
  }
  return files;
}
