"""The replay of a solution in the browser, shared by the playback page (:mod:`fastpuzzle.render`)
and the puzzle page (:mod:`fastpuzzle.gui`): each page draws its own board and controls, and
both step, rewind and play the moves with this one text."""

from __future__ import annotations

__all__ = ["REPLAY_JS"]

#: ``fastpuzzleReplay(view)``: ``view.moves()`` gives the move string, ``view.slide(move)``
#: plays one move on the board shown, ``view.shown(step)`` is called after every jump and
#: ``view.playing(on)`` when playing starts or stops. Returns ``go(step)``, ``stop()``,
#: ``play(movesPerSecond)`` (a second call pauses), ``reset()``, ``step()`` and ``playing()``.
REPLAY_JS = """
function fastpuzzleReplay(view){
 const back={U:"D",D:"U",L:"R",R:"L"};
 let step=0, timer=null;
 function go(s){
  const moves=view.moves();
  s=Math.max(0,Math.min(moves.length,s));
  while(step<s){view.slide(moves[step]);step++;}
  while(step>s){step--;view.slide(back[moves[step]]);}
  view.shown(step);
 }
 function stop(){
  if(timer){clearInterval(timer);timer=null;}
  view.playing(false);
 }
 function play(perSecond){
  if(timer){stop();return;}
  if(step>=view.moves().length)go(0);
  view.playing(true);
  // Ticks of at least 16 ms, each playing as many moves as the speed asks for.
  const every=Math.max(16,1000/perSecond), perTick=Math.max(1,Math.round(perSecond*every/1000));
  timer=setInterval(function(){
   if(step>=view.moves().length)stop();else go(step+perTick);
  },every);
 }
 return {go:go, stop:stop, play:play,
  reset:function(){stop();step=0;},
  step:function(){return step;},
  playing:function(){return timer!==null;}};
}
"""
