// Runs the hand window's Enter handling (phases/handresult.js) under node with keys of
// given times; prints what each key did as one JSON line.
const web = process.argv[2];
const { state } = await import(`${web}/store.js`);
const handResult = await import(`${web}/phases/handresult.js`);
const { opened, keys } = JSON.parse(process.argv[3]);
state.handWindow = { opened };
const seen = keys.map((timeStamp) => {
  const taken = handResult.windowKey({ key: "Enter", timeStamp, preventDefault() {} });
  return { taken, open: state.handWindow !== null };
});
console.log(JSON.stringify(seen));
