// Writes OUTPUT_bad_name.json, OUTPUT_parent_cycle.json and OUTPUT_rest_pose.json: legacy
// three.js models whose `bones` are MIB (default 1) of the smallest records ({"name":""}, 12
// bytes), refused at the last record (a name that is a number; a parent cycle) or read whole
// (every record with a rest pose). The hierarchy reader held the records as a JSON tree, about 15
// bytes of heap a byte, so a refused 1 MiB file peaked at about 5 times docs/reliability.md's
// memory bound; ThreeBoneRecordsSink holds a few bytes a record.
// Usage: node gen_bone_records.mjs OUTPUT [MIB]
import { writeFileSync } from 'node:fs';

const [output, mibText] = process.argv.slice(2);
if (!output) {
  console.error('usage: node gen_bone_records.mjs OUTPUT [MIB]');
  process.exit(2);
}
const bytes = Number(mibText ?? 1) * 1024 * 1024;
const animation = '"animation":{"hierarchy":[{"keys":[{"time":0,"pos":[0,0,0]},{"time":1,"pos":[0,1,0]}]}]}';
function model(record, count, last) {
  const records = new Array(count).fill(record);
  records.push(...last);
  return `{"bones":[${records.join(',')}],${animation}}`;
}
const small = '{"name":""}';
const count = Math.floor(bytes / (small.length + 1));
writeFileSync(`${output}_bad_name.json`, model(small, count, ['{"name":5}']));
writeFileSync(`${output}_parent_cycle.json`, model(small, count, [
  `{"name":"a","parent":${count + 1}}`, `{"name":"b","parent":${count}}`]));
const posed = '{"name":"","parent":0,"pos":[0,1,0],"rotq":[0,0,0,1],"scl":[1,1,1]}';
const posedCount = Math.floor(bytes / (posed.length + 1));
writeFileSync(`${output}_rest_pose.json`,
  model(posed, posedCount, []).replace('"parent":0,', ''));
