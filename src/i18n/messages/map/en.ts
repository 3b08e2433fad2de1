/** The map view (130 §7): the name of the map region. */
export const mapMessagesEn = {
  page_map_region: "Map of event locations",
} as const;
