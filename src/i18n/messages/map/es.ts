/** The map view (130 §7): the name of the map region. */
export const mapMessagesEs = {
  page_map_region: "Mapa de los lugares de los eventos",
} as const;
