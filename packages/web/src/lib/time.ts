/** Message times: short text for the list, full text for the tooltip, ISO for `<time datetime>`. */
export function messageTime(timestamp: number, twentyFourHour: boolean, now = Date.now()): { text: string; full: string; iso: string } {
  const date = new Date(timestamp * 1000);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  const clock = date.toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour });
  return {
    text: sameDay ? clock : `${date.toLocaleDateString([], { month: 'short', day: 'numeric' })} ${clock}`,
    full: date.toLocaleString(),
    iso: date.toISOString(),
  };
}
