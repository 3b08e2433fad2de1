/** The map view (130 §7): the name of the map region. */
export const mapMessagesDa = {
  page_map_region: "Kort over begivenhedernes steder",
} as const;
