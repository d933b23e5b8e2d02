// The keys (?): every key of every screen in one list.

export function render() {
  return `<div class="window" role="dialog" aria-modal="true" aria-labelledby="help-title"><h2 id="help-title">Keys</h2><dl class="keys">
    <dt>←/→, Enter</dt><dd>choose a playable card, play it</dd><dt>qs, 10h, th</dt><dd>type a card to play it</dd>
    <dt>k / d</dt><dd>draft: keep / discard</dd><dt>0–13, n, Enter</dt><dd>bid (n: nil)</dd><dt>y / n</dt><dd>blind nil</dd>
    <dt>Space, Enter</dt><dd>exchange: pick a card, give them; after a trick: go on</dd><dt>s / o / ?</dt><dd>score sheet, settings, keys</dd>
    <dt>m</dt><dd>chat (type /mute to hide the others' chat, /unmute to show it; /report TEXT tells the host)</dd><dt>b</dt><dd>bring in the bot</dd><dt>r / l</dt><dd>game over: rematch / leave</dd></dl>
    <div class="choices"><button type="button" data-close>Close (Esc)</button></div></div>`;
}
