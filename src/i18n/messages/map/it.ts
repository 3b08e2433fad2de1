/** The map view (130 §7): the name of the map region. */
export const mapMessagesIt = {
  page_map_region: "Mappa dei luoghi degli eventi",
} as const;
