// The form's options as the animconv API takes them (the CLI's long names in camelCase, docs/cli.md):
// an empty field is left out (the CLI's default), a number field goes as a number.
const TEXT = ['to', 'mirror', 'clip', 'boneNames', 'rootMotion', 'trim'];
const NUMBER = ['interval', 'fps', 'speed', 'reduceRotation', 'reduceTranslation'];

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
  for (const name of ['reduce', 'ground']) {
    if (form.elements[name].checked) options[name] = true;
  }
  return options;
}
